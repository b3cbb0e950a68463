import type { JsonSchema } from '../../../runtime/index.js';

export const SOURCE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';

/** Body of POST /api/v2/connector/source (and PUT, where name may be left out). */
export const sourceInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'sites'],
  properties: {
    name: { type: 'string', pattern: SOURCE_NAME_PATTERN, description: 'unique name, used in every path' },
    kind: { type: 'string', minLength: 1, description: 'jsonl, filesystem, web, or a kind another plugin adds' },
    description: { type: 'string', maxLength: 1000, default: '' },
    sites: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 }, description: 'target search site names' },
    locale: { type: 'string', pattern: '^[a-z]{2,3}_[A-Z]{2}$', default: 'en_US', description: 'locale of its documents (xx_XX)' },
    schedule: { type: ['string', 'null'], default: null, description: 'cron expression (5 or 6 fields) for scheduled full runs; null: none' },
    settings: { type: 'object', default: {}, description: 'kind-specific settings, checked against the kind\'s schema' },
    // What GET answers may be sent back as it is: these are set by the server and ignored here.
    origin: { description: 'ignored (set by the server)' },
    created: { description: 'ignored (set by the server)' },
    modified: { description: 'ignored (set by the server)' },
  },
};

export const sourceUpdateSchema: JsonSchema = { ...sourceInputSchema, required: ['kind', 'sites'] };

export const sourceSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    description: { type: 'string' },
    sites: { type: 'array', items: { type: 'string' } },
    locale: { type: 'string' },
    schedule: { type: ['string', 'null'] },
    settings: { type: 'object' },
    origin: { enum: ['config', 'api', 'seed'], description: 'config sources are read-only through the API' },
    created: { type: 'string', format: 'date-time' },
    modified: { type: 'string', format: 'date-time' },
  },
};

export const sourceNameParam: JsonSchema = { type: 'object', properties: { name: { type: 'string', minLength: 1 } } };
