import { definePlugin } from '../../runtime/index.js';
import type { Database } from '../../runtime/index.js';

export default definePlugin({
  register(ctx) {
    ctx.health('database', async () => {
      await ctx.resolve<Database>('db').raw('select 1');
      return { status: 'UP' };
    });
    ctx.routes((router) => {
      router.get('/status', {
        summary: 'Liveness of the connector (no authentication)',
        tags: ['status'],
        responses: { 200: { description: 'the connector answers', schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } } },
        security: [],
      }, (_req, res) => {
        res.json({ status: 'ok' });
      });
    });
  },
});
