import type { JsonSchema } from 'vela/plugin';
import { pathParams, siteRefSchema } from 'vela/plugin';
import { idSchema, localeSchema } from '../schemas/common.js';

const term: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

const documentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['position'],
  properties: {
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
  },
};

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
  // Read-only members a client may send back as it got them.
  id: {},
  siteId: {},
  managed: {},
  unmanagedId: {},
  provider: { type: 'string', minLength: 1, maxLength: 100 },
  modificationDate: {},
  createdAt: {},
  updatedAt: {},
};

export const spotlightCreateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties,
};
export const spotlightUpdateSchema: JsonSchema = { type: 'object', additionalProperties: false, properties };

export const spotlightSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    siteId: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    locale: { type: 'string' },
    managed: { type: 'boolean' },
    unmanagedId: { type: ['string', 'null'] },
    provider: { type: 'string' },
    modificationDate: { type: ['string', 'null'] },
    terms: { type: 'array', items: { type: 'string' } },
    documents: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          position: { type: 'integer' },
          title: { type: 'string' },
          type: { type: 'string' },
          referenceId: { type: ['string', 'null'] },
          content: { type: 'string' },
          link: { type: ['string', 'null'] },
        },
      },
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const spotlightSiteParams = pathParams({ snSiteId: siteRefSchema });
export const spotlightParams = pathParams({ snSiteId: siteRefSchema, id: idSchema });
