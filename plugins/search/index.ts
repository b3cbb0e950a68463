import { definePlugin } from '../../runtime/index.js';
import type { Database } from '../../runtime/index.js';

// The search service's home. Its API arrives with its own issue; for now it joins the search
// listener and reports whether its storage answers.
export default definePlugin({
  register(ctx) {
    ctx.health('database', async () => {
      await ctx.resolve<Database>('db').raw('select 1');
      return { status: 'UP' };
    });
  },
});
