import type { ApiRouter } from 'vela/plugin';
import { monitoringSchema, responseTimeReportSchema } from '../schemas/reports.js';
import type { GatewayDomain } from './route-context.js';

export function mountReportRoutes(router: ApiRouter, { reports, mappings, monitor }: GatewayDomain): void {
  const admin = router.withDefaults({ access: 'admin', tags: ['monitoring'] });
  admin.item(
    'get',
    '/api/v2/access/response_time',
    {
      tags: ['response times'],
      summary: 'Response times per mapping over a window: count, error rate, p50/p95/p99 and a series',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          window: {
            type: 'integer',
            minimum: 60,
            maximum: 2592000,
            default: 3600,
            description: 'seconds back from now',
          },
        },
      },
      description: 'the report',
      schema: responseTimeReportSchema,
    },
    (req) => reports.report((req.query as unknown as { window: number }).window, mappings.list()),
  );

  const statuses = { description: 'one entry per mapping', schema: monitoringSchema };
  admin.item(
    'get',
    '/api/v2/monitoring',
    { summary: "Status of every mapping's upstream from the last health check", ...statuses },
    () => monitor.list(),
  );
  admin.item(
    'post',
    '/api/v2/monitoring/check',
    { summary: 'Check every upstream now (as the scheduled job does) and answer the new statuses', ...statuses },
    () => monitor.checkAll(),
  );
}
