import type { Database, PluginDefinition } from '../../../runtime/index.js';
import { createGreeterHooks, type GreeterHooks, type Greeting } from './hooks.js';

interface GreeterConfig {
  greeting: string;
  maxNameLength: number;
}

/** The service other plugins can consume as "greeter.greetings". */
export class Greetings {
  constructor(private readonly db: Database, private readonly hooks: GreeterHooks, private readonly greeting: string) {}

  async greet(name: string): Promise<Greeting> {
    const greeting = this.hooks.beforeGreet.call({ name, text: `${this.greeting}, ${name}!` });
    await this.db('greeter_greetings').insert({ name: greeting.name, text: greeting.text });
    return greeting;
  }

  async count(): Promise<number> {
    const row = await this.db('greeter_greetings').count<{ n: number | string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}

let requestsSeen = 0;

// Only `import type` from the runtime: the plugin can live in any folder or archive.
const plugin: PluginDefinition<GreeterConfig> = {
  register(ctx) {
    const hooks = ctx.hooks.declare(createGreeterHooks);
    ctx.provide('greeter.greetings', () => new Greetings(ctx.resolve<Database>('db'), hooks, ctx.config.greeting));
    const shout = ctx.task<string, string>(new URL('./tasks/shout.ts', import.meta.url));

    ctx.routes((router) => {
      router.get('/api/greeter/hello', {
        summary: 'Greet someone',
        query: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: ctx.config.maxNameLength, description: 'who to greet' },
            loud: { type: 'boolean', default: false, description: 'shout it (in a worker thread)' },
          },
        },
        responses: { 200: { description: 'the greeting', schema: { type: 'object', properties: { name: { type: 'string' }, text: { type: 'string' } } } } },
      }, async (req, res) => {
        const { name, loud } = req.query as unknown as { name: string; loud: boolean };
        const greeting = await ctx.resolve<Greetings>('greeter.greetings').greet(name);
        res.json(loud ? { ...greeting, text: await shout(greeting.text) } : greeting);
      });
      router.get('/api/greeter/stats', { summary: 'Greetings stored and requests seen' }, async (_req, res) => {
        res.json({ greetings: await ctx.resolve<Greetings>('greeter.greetings').count(), requestsSeen });
      });
    });

    // A named tap on a runtime hook: counts every response of every service.
    ctx.hooks.tap('runtime.httpResponse', 'count-requests', () => {
      requestsSeen += 1;
    });
    ctx.health('greetings-table', async () => ({ status: 'UP', details: { greetings: await ctx.resolve<Greetings>('greeter.greetings').count() } }));
    ctx.schedule('log-count', '0 * * * *', async () => {
      ctx.logger.info({ greetings: await ctx.resolve<Greetings>('greeter.greetings').count() }, 'hourly greeting count');
    });
  },

  async start(ctx) {
    ctx.logger.info({ greetings: await ctx.resolve<Greetings>('greeter.greetings').count() }, 'greeter ready');
  },

  async stop(ctx) {
    ctx.logger.info('greeter stopped');
  },
};

export default plugin;
