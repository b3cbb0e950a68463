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
  title: { type: ['string', 'null'], maxLength: 500, default: '' },
  type: { type: ['string', 'null'], maxLength: 100, default: 'Page' },
  referenceId: {
    type: ['string', 'null'],
    maxLength: 400,
    description: 'id of an indexed document shown in the spotlight slot',
  },
  content: { type: ['string', 'null'], maxLength: 2000, default: '' },
  link: { type: ['string', 'null'], maxLength: 2000 },
  // The original's back-reference, which its clients send back.
  ...ignoredMembers(['turSNSiteSpotlight']),
});

const termObject: JsonSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: term, id: {}, turSNSiteSpotlight: {} },
};

const properties: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: ['string', 'null'], maxLength: 1000 },
  locale: { ...localeSchema, description: 'one of the site locales (default: its default locale, else its first)' },
  language: {
    type: 'string',
    maxLength: 16,
    description: "the original's name for locale (en_US, en-US): give either",
  },
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
  turSNSiteSpotlightTerms: {
    type: 'array',
    maxItems: 100,
    description: "the original's name for terms, as {id?, name}: give either",
    items: termObject,
  },
  documents: { type: 'array', maxItems: 100, items: documentSchema },
  turSNSiteSpotlightDocuments: {
    type: 'array',
    maxItems: 100,
    description: "the original's name for documents: give either",
    items: documentSchema,
  },
  provider: { type: ['string', 'null'], minLength: 1, maxLength: 100 },
  modificationDate: {
    type: ['string', 'null'],
    maxLength: 40,
    description: 'when the spotlight last changed at its source, a date-time kept as given',
  },
  // Read-only members a client may send back as it got them (turSNSite: the path names the site).
  ...ignoredMembers(['id', 'siteId', 'managed', 'unmanagedId', 'createdAt', 'updatedAt', 'turSNSite']),
};

export const spotlightCreateSchema = bodySchema(['name'], properties);

/** A spotlight in a site's export: as created, with whether it is managed and its importer's id. */
export const spotlightExportSchema = bodySchema(['name'], {
  ...properties,
  managed: { type: 'boolean', default: true, description: 'false for a spotlight the import API made' },
  unmanagedId: { type: ['string', 'null'], maxLength: 400, description: "the import API's id of an unmanaged one" },
});
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
  language: { type: 'string', description: 'locale, by its name in the original' },
  turSNSiteSpotlightTerms: {
    type: 'array',
    description: 'terms, as the original gives them',
    items: recordSchema({ name: 'string' }),
  },
  turSNSiteSpotlightDocuments: {
    type: 'array',
    description: 'documents, by their name in the original',
    items: documentAnswer,
  },
  turSNSite: recordSchema({ id: 'string', name: 'string' }, { description: 'the site, as the original names it' }),
});

export const spotlightSiteParams = pathParams({ snSiteId: siteRefSchema });
export const spotlightParams = pathParams({ snSiteId: siteRefSchema, id: idSchema });
