import { type JsonSchema, recordSchema } from 'vela/plugin';

const point = recordSchema({
  t: 'string',
  count: 'integer',
  errors: 'integer',
  p50Ms: 'number?',
  p95Ms: 'number?',
  p99Ms: 'number?',
});
// The mapping a row of a report is about.
const mappingNames = { mappingId: 'string', name: 'string', context: 'string' } as const;

export const responseTimeReportSchema = recordSchema({
  window: recordSchema({ from: 'string', to: 'string', bucketSeconds: 'integer' }),
  mappings: {
    type: 'array',
    items: recordSchema({
      ...mappingNames,
      count: 'integer',
      errorRate: {
        type: 'number',
        description: "share of answers with status 5xx (the upstream's, or the gateway's 502/504)",
      },
      p50Ms: 'number?',
      p95Ms: 'number?',
      p99Ms: 'number?',
      series: { type: 'array', items: point },
    }),
  },
});

export const monitoringSchema: JsonSchema = {
  type: 'array',
  items: recordSchema({
    ...mappingNames,
    url: 'string',
    status: { type: 'string', enum: ['UP', 'DOWN', 'UNKNOWN'] },
    latencyMs: 'number?',
    lastCheckedAt: 'string?',
    lastChangeAt: 'string?',
    message: 'string',
  }),
};
