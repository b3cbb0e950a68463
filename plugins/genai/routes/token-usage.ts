import { type ApiRouter, itemRoute } from 'vela/plugin';
import type { GenaiDomain } from '../domain.js';
import { currentMonth } from '../usage/token-usage.js';

const line = {
  instanceId: { type: 'string' },
  instanceTitle: { type: 'string' },
  vendorId: { type: 'string' },
  modelName: { type: 'string' },
  inputTokens: { type: 'integer' },
  outputTokens: { type: 'integer' },
  totalTokens: { type: 'integer' },
  requestCount: { type: 'integer' },
};

const reportSchema = {
  type: 'object',
  properties: {
    periodStart: { type: 'string' },
    periodEnd: { type: 'string', description: 'exclusive' },
    daily: { type: 'array', items: { type: 'object', properties: { date: { type: 'string' }, ...line } } },
    summary: { type: 'array', items: { type: 'object', properties: line } },
    totalInputTokens: { type: 'integer' },
    totalOutputTokens: { type: 'integer' },
    totalTokens: { type: 'integer' },
    totalRequests: { type: 'integer' },
  },
};

/** GET /api/v2/llm/token-usage?month=YYYY-MM: the month's tokens by day and by model (admin scope). */
export function mountTokenUsageRoutes(router: ApiRouter, domain: GenaiDomain): void {
  itemRoute(
    router,
    'get',
    '/api/v2/llm/token-usage',
    {
      access: 'key',
      tags: ['token usage'],
      summary: 'Tokens used in a month (UTC), by day and instance and model, and by instance and model',
      query: {
        type: 'object',
        properties: {
          month: { type: 'string', maxLength: 40, description: 'YYYY-MM (default: the current month, UTC)' },
        },
      },
      description: 'the report',
      schema: reportSchema,
    },
    (req) => {
      const month = (req.query as { month?: string }).month;
      return domain.usage.report(month === undefined || month === '' ? currentMonth() : month);
    },
  );
}
