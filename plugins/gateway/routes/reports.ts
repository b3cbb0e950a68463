import type { ApiRouter } from 'vela/plugin';
import { monitoringSchema, responseTimeReportSchema } from '../schemas/reports.js';
import type { GatewayDomain } from './route-context.js';

export function mountReportRoutes(router: ApiRouter, { reports, mappings, monitor }: GatewayDomain): void {
  router.get(
    '/api/v2/access/response_time',
    {
      access: 'admin',
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
      responses: { 200: { description: 'the report', schema: responseTimeReportSchema } },
    },
    async (req, res) => {
      res.json(await reports.report((req.query as unknown as { window: number }).window, mappings.list()));
    },
  );

  router.get(
    '/api/v2/monitoring',
    {
      access: 'admin',
      tags: ['monitoring'],
      summary: "Status of every mapping's upstream from the last health check",
      responses: { 200: { description: 'one entry per mapping', schema: monitoringSchema } },
    },
    (_req, res) => {
      res.json(monitor.list());
    },
  );

  router.post(
    '/api/v2/monitoring/check',
    {
      access: 'admin',
      tags: ['monitoring'],
      summary: 'Check every upstream now (as the scheduled job does) and answer the new statuses',
      responses: { 200: { description: 'one entry per mapping', schema: monitoringSchema } },
    },
    async (_req, res) => {
      res.json(await monitor.checkAll());
    },
  );
}
