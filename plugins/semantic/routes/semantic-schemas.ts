import { bodySchema, type JsonSchema, pathParams, recordSchema, siteRefSchema } from 'vela/plugin';

export const siteParam = pathParams({ siteName: siteRefSchema });

const settingsMembers = {
  enabled: { type: 'boolean', description: "embed the site's documents and answer its hybrid and vector searches" },
  embedder: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description:
      '"builtin" (learned from the site\'s own text, no model server) or the id of an LLM instance that offers embeddings',
  },
  fields: {
    type: 'array',
    maxItems: 50,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: 100 },
    description: "the fields embedded; empty: the site's title, description and text fields",
  },
  passageChars: {
    type: 'integer',
    minimum: 100,
    maximum: 8000,
    description: 'longest passage embedded, in characters',
  },
  passageOverlap: {
    type: 'integer',
    minimum: 0,
    maximum: 4000,
    description: 'characters a passage repeats from the one before (at most half of passageChars)',
  },
  rrfK: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: "reciprocal rank fusion's k: a result's score from each list is 1/(k + rank)",
  },
  window: {
    type: 'integer',
    minimum: 10,
    maximum: 1000,
    description:
      'results each side (keyword, vector) brings to a hybrid search; a vector search finds at most this many',
  },
} satisfies Record<string, JsonSchema>;

export const settingsSchema = recordSchema({
  site: 'string',
  siteId: 'string',
  ...settingsMembers,
  custom: { type: 'boolean', description: 'false: the site has no settings of its own and these are the defaults' },
  updatedAt: 'string?',
});

export const settingsBody = bodySchema([], settingsMembers);

const countsSchema = recordSchema({
  locale: 'string',
  model: 'string',
  active: { type: 'boolean', description: 'the model searches use' },
  pending: { type: 'integer', description: 'documents waiting to be embedded' },
  claimed: { type: 'integer', description: 'of those, being embedded now' },
  done: 'integer',
  failed: 'integer',
  passages: { type: 'integer', description: 'passage vectors stored' },
});

export const statusSchema = recordSchema({
  site: 'string',
  enabled: 'boolean',
  embedder: 'string',
  locales: {
    type: 'array',
    items: recordSchema({
      locale: 'string',
      ready: { type: 'boolean', description: 'hybrid and vector searches run (else they fall back to keyword)' },
      reason: { type: ['string', 'null'], description: 'why not, when not ready' },
      model: { type: ['string', 'null'], description: 'the active model' },
      training: { type: 'boolean', description: 'the built-in model is being learned in this process' },
    }),
  },
  models: { type: 'array', items: countsSchema },
  failures: {
    type: 'array',
    description: 'the latest documents that failed, with the reason',
    items: recordSchema({ locale: 'string', id: 'string', model: 'string', reason: 'string', updatedAt: 'string' }),
  },
});
