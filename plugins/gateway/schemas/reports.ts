import type { JsonSchema } from 'vela/plugin';

const ms = { type: ['number', 'null'] };
const point = {
  type: 'object',
  properties: {
    t: { type: 'string' },
    count: { type: 'integer' },
    errors: { type: 'integer' },
    p50Ms: ms,
    p95Ms: ms,
    p99Ms: ms,
  },
};
// The mapping a row of a report is about.
const mappingNames = { mappingId: { type: 'string' }, name: { type: 'string' }, context: { type: 'string' } };

export const responseTimeReportSchema: JsonSchema = {
  type: 'object',
  properties: {
    window: {
      type: 'object',
      properties: { from: { type: 'string' }, to: { type: 'string' }, bucketSeconds: { type: 'integer' } },
    },
    mappings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ...mappingNames,
          count: { type: 'integer' },
          errorRate: {
            type: 'number',
            description: "share of answers with status 5xx (the upstream's, or the gateway's 502/504)",
          },
          p50Ms: ms,
          p95Ms: ms,
          p99Ms: ms,
          series: { type: 'array', items: point },
        },
      },
    },
  },
};

export const monitoringSchema: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      ...mappingNames,
      url: { type: 'string' },
      status: { type: 'string', enum: ['UP', 'DOWN', 'UNKNOWN'] },
      latencyMs: ms,
      lastCheckedAt: { type: ['string', 'null'] },
      lastChangeAt: { type: ['string', 'null'] },
      message: { type: 'string' },
    },
  },
};
