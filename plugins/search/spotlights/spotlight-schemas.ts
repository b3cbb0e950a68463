import { bodySchema, ignoredMembers, type JsonSchema, pathParams, recordSchema, siteRefSchema } from 'vela/plugin';
import { idSchema, localeSchema } from '../schemas/common.js';

const term: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

const documentSchema = bodySchema(['position'], {
  id: { type: ['string', 'null'], maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' },
  position: {
    type: 'integer',
    minimum: 1,
    maximum: 100000,
    description: '1-based position in the whole result list, across pages',
  },
  title: { type: 'string', maxLength: 500, default: '' },
  type: { type: 'string', maxLength: 100, default: 'Page' },
  referenceId: {
    type: ['string', 'null'],
    maxLength: 400,
    description: 'id of an indexed document shown in the spotlight slot',
  },
  content: { type: 'string', maxLength: 2000, default: '' },
  link: { type: ['string', 'null'], maxLength: 2000 },
});

const properties: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  locale: { ...localeSchema, description: 'one of the site locales (default: its default locale, else its first)' },
  terms: {
    type: 'array',
    maxItems: 100,
    description:
      'a query matches when one of these is part of it (ignoring case); strings, or {"name": "..."} as the original wrote them',
    // One schema for both forms rather than oneOf, whose refusal names no rule: the string rules apply to a
    // string, the object rules to an object, so "" is refused as too short, naming terms[0].
    items: {
      type: ['string', 'object'],
      minLength: 1,
      maxLength: 255,
      required: ['name'],
      properties: { name: term, id: {} },
    },
  },
  documents: { type: 'array', maxItems: 100, items: documentSchema },
  provider: { type: 'string', minLength: 1, maxLength: 100 },
  // Read-only members a client may send back as it got them.
  ...ignoredMembers(['id', 'siteId', 'managed', 'unmanagedId', 'modificationDate', 'createdAt', 'updatedAt']),
};

export const spotlightCreateSchema = bodySchema(['name'], properties);
export const spotlightUpdateSchema = bodySchema([], properties);

const documentAnswer = recordSchema({
  id: 'string',
  position: 'integer',
  title: 'string',
  type: 'string',
  referenceId: 'string?',
  content: 'string',
  link: 'string?',
});

export const spotlightSchema = recordSchema({
  id: 'string',
  siteId: 'string',
  name: 'string',
  description: 'string',
  locale: 'string',
  managed: 'boolean',
  unmanagedId: 'string?',
  provider: 'string',
  modificationDate: 'string?',
  terms: 'string[]',
  documents: { type: 'array', items: documentAnswer },
  createdAt: 'date-time',
  updatedAt: 'date-time',
});

export const spotlightSiteParams = pathParams({ snSiteId: siteRefSchema });
export const spotlightParams = pathParams({ snSiteId: siteRefSchema, id: idSchema });
