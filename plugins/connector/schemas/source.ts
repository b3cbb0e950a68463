import { bodySchema, ignoredMembers, type JsonSchema, recordSchema } from 'vela/plugin';
import { LOCALE_PATTERN, siteNameSchema, sourceNameSchema } from './common.js';

/** Body of POST /api/v2/connector/source (and PUT, where name may be left out). */
export const sourceInputSchema = bodySchema(['name', 'kind', 'sites'], {
  name: { ...sourceNameSchema, description: 'unique name, used in every path' },
  kind: {
    type: 'string',
    maxLength: 40,
    pattern: '^[a-z][a-z0-9-]{0,39}$',
    description: 'jsonl, filesystem, web, or a kind another plugin adds',
  },
  description: { type: 'string', maxLength: 1000, default: '' },
  sites: {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    items: siteNameSchema,
    description: 'target search site names',
  },
  locale: {
    type: 'string',
    maxLength: 6,
    pattern: LOCALE_PATTERN,
    default: 'en_US',
    description: 'locale of its documents (xx_XX)',
  },
  schedule: {
    type: ['string', 'null'],
    maxLength: 200,
    default: null,
    description: 'cron expression (5 or 6 fields) for scheduled full runs; null: none',
  },
  settings: { type: 'object', default: {}, description: "kind-specific settings, checked against the kind's schema" },
  // What GET answers may be sent back as it is: these are set by the server and ignored here.
  ...ignoredMembers(['origin', 'created', 'modified'], 'ignored (set by the server)'),
});

export const sourceUpdateSchema: JsonSchema = { ...sourceInputSchema, required: ['kind', 'sites'] };

export const sourceSchema = recordSchema({
  name: 'string',
  kind: 'string',
  description: 'string',
  sites: 'string[]',
  locale: 'string',
  schedule: 'string?',
  settings: { type: 'object' },
  origin: {
    enum: ['config', 'api', 'seed', 'plugin'],
    description:
      'config sources are read-only through the API; plugin sources change through the plugin that made them (cms)',
  },
  created: 'date-time',
  modified: 'date-time',
});
