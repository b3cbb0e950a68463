import type { Database } from 'vela/plugin';
import type { GreeterHooks, Greeting, Greetings } from './api.js';

/** The service other plugins can consume as "greeter.greetings": greetings stored in the plugin's table. */
export class GreetingBook implements Greetings {
  constructor(
    private readonly db: Database,
    private readonly hooks: GreeterHooks,
    private readonly greeting: string,
  ) {}

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
