import { bodySchema, type JsonSchema, pathParams, recordSchema, SITE_NAME_PATTERN } from 'vela/plugin';

/** Source names are used in every path: letters, digits, `.`, `_`, `-`, 1 to 100 (the column's size). */
export const SOURCE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';
export const sourceNameSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: SOURCE_NAME_PATTERN };

/** Ids the connector makes (rules, runs): UUIDs, or ids given on create; 1 to 36 of letters, digits, `_`, `-`. */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };

/** Search site names, as the search service takes them (its SITE_NAME_PATTERN). */
export const siteNameSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: SITE_NAME_PATTERN };

export const LOCALE_PATTERN = '^[a-z]{2,3}_[A-Z]{2}$';

/** Content ids: what the sources call their documents (paths, URLs, keys); the column holds 400. */
export const MAX_OBJECT_ID = 400;

export const sentSchema = recordSchema(
  {
    status: { const: 'sent' },
    runId: { type: 'string', description: 'the run; its statistics appear under /monitoring/indexing/stats/{source}' },
  },
  { required: ['status'] },
);

export const idListSchema: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 100000,
  items: { type: 'string', minLength: 1, maxLength: MAX_OBJECT_ID },
  description: 'content ids',
};

export const statusRecordSchema = recordSchema({
  id: 'integer',
  objectId: 'string',
  source: 'string',
  status: { enum: ['INDEXED', 'IGNORED', 'ERROR'] },
  checksum: 'string?',
  locale: 'string',
  sites: 'string[]',
  error: 'string?',
  transactionId: { type: ['string', 'null'], description: 'the run that last changed the record' },
  created: 'date-time',
  modificationDate: { type: 'string', format: 'date-time', description: 'last change' },
});

export const monitoringSchema = recordSchema({
  sources: 'string[]',
  indexing: { type: 'array', items: statusRecordSchema },
});

export const monitoringSearchSchema = bodySchema([], {
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
});

export const monitoringPageSchema = recordSchema({
  sources: 'string[]',
  content: { type: 'array', items: statusRecordSchema },
  page: 'integer',
  size: 'integer',
  totalElements: 'integer',
  totalPages: 'integer',
});

export const runStatsSchema = recordSchema({
  id: 'string',
  source: 'string',
  provider: { type: 'string', description: 'the source kind' },
  operationType: { enum: ['INDEX_ALL', 'REINDEX_ALL', 'INDEX_IDS', 'REINDEX_IDS', 'DEINDEX_IDS'] },
  trigger: { enum: ['api', 'schedule', 'seed'] },
  status: { enum: ['RUNNING', 'COMPLETED', 'FAILED', 'INTERRUPTED'] },
  startTime: 'date-time',
  endTime: 'string?',
  documentCount: 'integer',
  durationMs: 'integer?',
  documentsPerSecond: 'number?',
  documentsPerMinute: 'number?',
  indexed: 'integer',
  unchanged: 'integer',
  ignored: 'integer',
  deindexed: 'integer',
  errors: 'integer',
  error: 'string?',
  notes: { type: 'array', items: { type: 'string' }, description: 'what the source said about the run as a whole' },
});

export const sourceParam = pathParams({ source: sourceNameSchema });
export const nameParam = pathParams({ name: sourceNameSchema });
