import type { ApiRouter } from './api-router.js';
import type { RouteSpec } from './openapi-registry.js';

/** What a liveness route answers while its plugin runs. */
const aliveSchema = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };

/**
 * GET `path`, public: `{"status": "ok"}` while the plugin answers, for health checks that send no credentials.
 * `answer` says it in the API description ("the connector answers").
 */
export function livenessRoute(
  router: ApiRouter,
  path: string,
  spec: Pick<RouteSpec, 'tags' | 'summary'> & { answer: string },
): ApiRouter {
  return router.get(
    path,
    {
      access: 'public',
      tags: spec.tags,
      summary: spec.summary,
      responses: { 200: { description: spec.answer, schema: aliveSchema } },
    },
    (_req, res) => {
      res.json({ status: 'ok' });
    },
  );
}
