import { definePlugin } from 'vela/plugin';
import { GreetingBook } from './greeting-book.js';
import { createGreeterHooks } from './hooks.js';

interface GreeterConfig {
  greeting: string;
  maxNameLength: number;
}

export default definePlugin<GreeterConfig>({
  register(ctx) {
    const hooks = ctx.hooks.declare(createGreeterHooks());
    ctx.provide('greeter.greetings', () => new GreetingBook(ctx.resolve('db'), hooks, ctx.config.greeting));
    const greetings = () => ctx.resolve('greeter.greetings');
    const shout = ctx.task<string, string>(new URL('./tasks/shout.ts', import.meta.url));
    // The plugin's state lives in this closure: one per runtime, shared by its routes, taps and lifecycle.
    let requestsSeen = 0;

    ctx.routes((router) => {
      router.get(
        '/api/greeter/hello',
        {
          access: 'public',
          summary: 'Greet someone',
          query: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: ctx.config.maxNameLength, description: 'who to greet' },
              loud: { type: 'boolean', default: false, description: 'shout it (in a worker thread)' },
            },
          },
          responses: {
            200: {
              description: 'the greeting',
              schema: { type: 'object', properties: { name: { type: 'string' }, text: { type: 'string' } } },
            },
          },
        },
        async (req, res) => {
          const { name, loud } = req.query as unknown as { name: string; loud: boolean };
          const greeting = await greetings().greet(name);
          res.json(loud ? { ...greeting, text: await shout(greeting.text) } : greeting);
        },
      );
      router.get(
        '/api/greeter/stats',
        { access: 'key', summary: 'Greetings stored and requests seen' },
        async (_req, res) => {
          res.json({ greetings: await greetings().count(), requestsSeen });
        },
      );
    });

    // A named tap on a runtime hook: counts every response of every service.
    ctx.hooks.tap('runtime.httpResponse', 'count-requests', () => {
      requestsSeen += 1;
    });
    ctx.health('greetings-table', async () => ({ status: 'UP', details: { greetings: await greetings().count() } }));
    ctx.schedule('log-count', '0 * * * *', async () => {
      ctx.logger.info({ greetings: await greetings().count() }, 'hourly greeting count');
    });

    return {
      async start() {
        ctx.logger.info({ greetings: await greetings().count() }, 'greeter ready');
      },
      stop() {
        ctx.logger.info({ requestsSeen }, 'greeter stopped');
      },
    };
  },
});
