import type { JsonSchema } from 'vela/plugin';

/** Source names are used in every path: letters, digits, `.`, `_`, `-`, 1 to 100 (the column's size). */
export const SOURCE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';
export const sourceNameSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: SOURCE_NAME_PATTERN };

/** Ids the connector makes (rules, runs): UUIDs, or ids given on create; 1 to 36 of letters, digits, `_`, `-`. */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };

/** Search site names, as the search service takes them (its SITE_NAME_PATTERN). */
export const siteNameSchema: JsonSchema = {
  type: 'string',
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$',
};

export const LOCALE_PATTERN = '^[a-z]{2,3}_[A-Z]{2}$';

/** Content ids: what the sources call their documents (paths, URLs, keys); the column holds 400. */
export const MAX_OBJECT_ID = 400;

export const sentSchema: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { const: 'sent' },
    runId: { type: 'string', description: 'the run; its statistics appear under /monitoring/indexing/stats/{source}' },
  },
};

export const idListSchema: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 100000,
  items: { type: 'string', minLength: 1, maxLength: MAX_OBJECT_ID },
  description: 'content ids',
};

export const statusRecordSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    objectId: { type: 'string' },
    source: { type: 'string' },
    status: { enum: ['INDEXED', 'IGNORED', 'ERROR'] },
    checksum: { type: ['string', 'null'] },
    locale: { type: 'string' },
    sites: { type: 'array', items: { type: 'string' } },
    error: { type: ['string', 'null'] },
    transactionId: { type: ['string', 'null'], description: 'the run that last changed the record' },
    created: { type: 'string', format: 'date-time' },
    modificationDate: { type: 'string', format: 'date-time', description: 'last change' },
  },
};

export const monitoringSchema: JsonSchema = {
  type: 'object',
  properties: {
    sources: { type: 'array', items: { type: 'string' } },
    indexing: { type: 'array', items: statusRecordSchema },
  },
};

export const monitoringSearchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: { ...sourceNameSchema, type: ['string', 'null'] },
    status: { type: ['string', 'null'], enum: ['INDEXED', 'IGNORED', 'ERROR', null] },
    statuses: { type: 'array', maxItems: 3, items: { enum: ['INDEXED', 'IGNORED', 'ERROR'] } },
    // Bounded as the ids are: SQLite refuses LIKE patterns past 50,000 bytes.
    objectId: { type: ['string', 'null'], maxLength: MAX_OBJECT_ID, description: 'part of the id, case-insensitive' },
    locale: { type: ['string', 'null'], maxLength: 6, pattern: LOCALE_PATTERN },
    site: { ...siteNameSchema, type: ['string', 'null'] },
    // Bounded so that page × size stays a number the database takes as an offset.
    page: { type: 'integer', minimum: 0, maximum: 1000000, default: 0, description: 'from 0' },
    size: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
  },
};

export const monitoringPageSchema: JsonSchema = {
  type: 'object',
  properties: {
    sources: { type: 'array', items: { type: 'string' } },
    content: { type: 'array', items: statusRecordSchema },
    page: { type: 'integer' },
    size: { type: 'integer' },
    totalElements: { type: 'integer' },
    totalPages: { type: 'integer' },
  },
};

export const runStatsSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    source: { type: 'string' },
    provider: { type: 'string', description: 'the source kind' },
    operationType: { enum: ['INDEX_ALL', 'REINDEX_ALL', 'INDEX_IDS', 'REINDEX_IDS', 'DEINDEX_IDS'] },
    trigger: { enum: ['api', 'schedule', 'seed'] },
    status: { enum: ['RUNNING', 'COMPLETED', 'FAILED', 'INTERRUPTED'] },
    startTime: { type: 'string', format: 'date-time' },
    endTime: { type: ['string', 'null'] },
    documentCount: { type: 'integer' },
    durationMs: { type: ['integer', 'null'] },
    documentsPerSecond: { type: ['number', 'null'] },
    documentsPerMinute: { type: ['number', 'null'] },
    indexed: { type: 'integer' },
    unchanged: { type: 'integer' },
    ignored: { type: 'integer' },
    deindexed: { type: 'integer' },
    errors: { type: 'integer' },
    error: { type: ['string', 'null'] },
    notes: { type: 'array', items: { type: 'string' }, description: 'what the source said about the run as a whole' },
  },
};

export const sourceParam: JsonSchema = { type: 'object', properties: { source: sourceNameSchema } };
export const nameParam: JsonSchema = { type: 'object', properties: { name: sourceNameSchema } };
