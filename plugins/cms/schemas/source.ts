import { bodySchema, ignoredMembers, type JsonSchema, recordSchema } from 'vela/plugin';
import { DEFAULT_FIELDS } from '../sources/cms-source.js';
import { contentPathSchema, fieldNameSchema, LOCALE_PATTERN, siteNameSchema, sourceNameSchema } from './common.js';

const urlSchema = (description: string): JsonSchema => ({
  type: 'string',
  maxLength: 2000,
  pattern: '^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$',
  description,
});
const localeSchema: JsonSchema = { type: 'string', maxLength: 6, pattern: LOCALE_PATTERN };

const fieldsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  default: { ...DEFAULT_FIELDS },
  description: 'the search field each content property goes to (null: left out)',
  properties: Object.fromEntries(
    Object.entries(DEFAULT_FIELDS).map(([property, field]) => [property, { ...fieldNameSchema, default: field }]),
  ) as Record<string, JsonSchema>,
};

const properties: Record<string, JsonSchema> = {
  name: { ...sourceNameSchema, description: 'unique name, used in POST /api/v2/cms/index/{name}' },
  description: { type: 'string', maxLength: 1000, default: '' },
  endpoint: urlSchema('the content repository (author instance), e.g. http://aem-author:4502'),
  username: { type: 'string', minLength: 1, maxLength: 200, description: 'basic-auth user of the repository' },
  password: {
    type: 'string',
    minLength: 1,
    maxLength: 1000,
    description: 'stored encrypted and never answered; left out on PUT, the stored one stays',
  },
  rootPath: { ...contentPathSchema, default: '/content', description: 'only content below this path is indexed' },
  contentTypes: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { enum: ['cq:Page', 'dam:Asset'] },
    default: ['cq:Page'],
    description: 'pages (cq:Page), assets (dam:Asset), or both',
  },
  defaultLocale: { ...localeSchema, default: 'en_US', description: 'locale of content no locale path covers (xx_XX)' },
  localePaths: {
    type: 'array',
    maxItems: 200,
    default: [],
    description: 'the locale of the content below each path (the longest matching path wins)',
    items: bodySchema(['path', 'locale'], { path: contentPathSchema, locale: localeSchema }),
  },
  author: {
    type: 'boolean',
    default: true,
    description: 'index the author copy (INDEXING events, full runs) into authorSite',
  },
  publish: {
    type: 'boolean',
    default: true,
    description: 'index the published copy (PUBLISHING events, activated content in full runs) into publishSite',
  },
  authorSite: { ...siteNameSchema, type: ['string', 'null'], default: null },
  publishSite: { ...siteNameSchema, type: ['string', 'null'], default: null },
  deliveryUrlPrefix: {
    ...urlSchema(
      'where visitors read published content (e.g. https://www.example.com): the url of published documents, and what URL path lists are mapped back from',
    ),
    type: ['string', 'null'],
    default: null,
  },
  fields: fieldsSchema,
  schedule: {
    type: ['string', 'null'],
    maxLength: 200,
    default: null,
    description: 'cron expression for scheduled full runs; null: none',
  },
  // What GET answers may be sent back as it is: set by the server, ignored here (but a PUT's id must match).
  id: { type: 'string', maxLength: 36, description: 'ignored on POST; on PUT it must match the path' },
  ...ignoredMembers(['passwordSet', 'created', 'modified'], 'ignored (set by the server)'),
};

/** Body of POST /api/v2/cms/source. */
export const sourceInputSchema = bodySchema(['name', 'endpoint', 'username', 'password'], properties);

/** Body of PUT /api/v2/cms/source/{id}: the same, the password optional. */
export const sourceUpdateSchema: JsonSchema = { ...sourceInputSchema, required: ['name', 'endpoint', 'username'] };

const { password: _password, ...answered } = properties;
/** A source as answered: never its password. */
export const sourceSchema = recordSchema({
  ...answered,
  id: 'string',
  passwordSet: 'boolean',
  created: 'string',
  modified: 'string',
});

/** The empty source a form starts from: its members blank, so none of their rules apply yet. */
export const sourceStructureSchema = recordSchema({
  ...answered,
  id: { type: 'string', description: 'empty: the service gives a new source its id' },
  name: 'string',
  endpoint: 'string',
  username: 'string',
  password: { type: 'string', description: 'empty: a new source must be given one' },
});
