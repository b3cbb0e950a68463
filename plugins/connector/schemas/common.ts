import type { JsonSchema } from '../../../runtime/index.js';

export const sentSchema: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { const: 'sent' }, runId: { type: 'string', description: 'the run; its statistics appear under /monitoring/indexing/stats/{source}' } },
};

export const idListSchema: JsonSchema = {
  type: 'array', minItems: 1, maxItems: 100000, items: { type: 'string', minLength: 1, maxLength: 400 }, description: 'content ids',
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
  properties: { sources: { type: 'array', items: { type: 'string' } }, indexing: { type: 'array', items: statusRecordSchema } },
};

export const monitoringSearchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: { type: ['string', 'null'] },
    status: { type: ['string', 'null'], enum: ['INDEXED', 'IGNORED', 'ERROR', null] },
    statuses: { type: 'array', items: { enum: ['INDEXED', 'IGNORED', 'ERROR'] } },
    objectId: { type: ['string', 'null'], description: 'part of the id, case-insensitive' },
    locale: { type: ['string', 'null'] },
    site: { type: ['string', 'null'] },
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
    operationType: { enum: ['INDEX_ALL', 'REINDEX_ALL', 'INDEX_IDS', 'REINDEX_IDS'] },
    trigger: { enum: ['api', 'schedule', 'seed'] },
    status: { enum: ['RUNNING', 'COMPLETED', 'FAILED', 'INTERRUPTED'] },
    startTime: { type: 'string', format: 'date-time' },
    endTime: { type: ['string', 'null'] },
    documentCount: { type: 'integer' },
    durationMs: { type: ['integer', 'null'] },
    documentsPerSecond: { type: ['number', 'null'] },
    documentsPerMinute: { type: ['number', 'null'] },
    indexed: { type: 'integer' }, unchanged: { type: 'integer' }, ignored: { type: 'integer' }, deindexed: { type: 'integer' }, errors: { type: 'integer' },
    error: { type: ['string', 'null'] },
  },
};

export const sourceParam: JsonSchema = { type: 'object', properties: { source: { type: 'string', minLength: 1 } } };
export const nameParam: JsonSchema = { type: 'object', properties: { name: { type: 'string', minLength: 1 } } };
