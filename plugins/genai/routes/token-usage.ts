import { type ApiRouter, itemRoute, recordSchema } from 'vela/plugin';
import type { GenaiDomain } from '../domain.js';
import { currentMonth } from '../usage/token-usage.js';

/** One line of the report: an instance and model's tokens and requests. */
const line = {
  instanceId: 'string',
  instanceTitle: 'string',
  vendorId: 'string',
  modelName: 'string',
  inputTokens: 'integer',
  outputTokens: 'integer',
  totalTokens: 'integer',
  requestCount: 'integer',
} as const;

const reportSchema = recordSchema({
  periodStart: 'string',
  periodEnd: { type: 'string', description: 'exclusive' },
  daily: { type: 'array', items: recordSchema({ date: 'string', ...line }) },
  summary: { type: 'array', items: recordSchema(line) },
  totalInputTokens: 'integer',
  totalOutputTokens: 'integer',
  totalTokens: 'integer',
  totalRequests: 'integer',
});

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
