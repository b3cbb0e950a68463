import type { ApiRouter } from 'vela/plugin';
import { API } from './route-context.js';

export function mountStatusRoute(router: ApiRouter): void {
  router.get(
    `${API}/status`,
    {
      access: 'public',
      tags: ['cms'],
      summary: 'Liveness of the cms plugin (no authentication)',
      responses: {
        200: {
          description: 'the plugin answers',
          schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } },
        },
      },
    },
    (_req, res) => {
      res.json({ status: 'ok' });
    },
  );
}
