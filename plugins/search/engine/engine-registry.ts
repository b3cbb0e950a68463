import type { SearchEngines } from '../api.js';
import type {
  EngineSchema,
  EngineScope,
  PersistentEngines,
  SearchEngine,
  SearchEngineFactory,
} from './search-engine.js';

const ENGINE_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * The engine families the search plugin's `"engine"` setting can name: the built-in ones and those plugins add
 * (`search.engines`).
 */
export class EngineRegistry implements SearchEngines {
  /** Name → how to get its factory: a built-in one is made only when chosen. */
  private readonly factories = new Map<string, () => SearchEngineFactory>();

  constructor(readonly configured: string) {}

  register(name: string, factory: SearchEngineFactory): void {
    // A tap is plain JavaScript from another plugin: a wrong shape should fail here, by name, not at the first index.
    if (typeof factory?.create !== 'function' || typeof factory.restore !== 'function')
      throw new Error(
        `search engine ${JSON.stringify(name)}: its factory must have create(schema, scope?) and restore(snapshot) methods`,
      );
    this.add(name, () => factory);
  }

  /** A built-in engine, made by `make` if the configuration chooses it. */
  registerBuiltIn(name: string, make: () => SearchEngineFactory): void {
    this.add(name, make);
  }

  private add(name: string, make: () => SearchEngineFactory): void {
    if (typeof name !== 'string' || !ENGINE_NAME.test(name))
      throw new Error(`a search engine's name must match ${ENGINE_NAME.source}, got ${JSON.stringify(name)}`);
    if (this.factories.has(name)) throw new Error(`search engine "${name}" is registered twice`);
    this.factories.set(name, make);
  }

  has(name: string): boolean {
    return this.factories.has(name);
  }

  names(): string[] {
    return [...this.factories.keys()].sort();
  }

  /** The factory of the configured engine; an unknown name is a start error that lists the known ones. */
  get(name: string): SearchEngineFactory {
    const make = this.factories.get(name);
    if (make) return make();
    throw new Error(
      `search plugin config: "engine": ${JSON.stringify(name)} is no registered search engine; the registered ones are ${this.names()
        .map((n) => `"${n}"`)
        .join(', ')} (an engine plugin registers its name through the search.engines hook: is it loaded?)`,
    );
  }
}

/**
 * The factory the IndexManager is built with in register, bound at start to the configured engine's (engine
 * plugins register theirs through a hook whose taps run only then). Nothing asks for an engine before start.
 */
export class ChosenEngineFactory implements SearchEngineFactory {
  private chosen: SearchEngineFactory | undefined;

  bind(factory: SearchEngineFactory): void {
    this.chosen = factory;
  }

  private get factory(): SearchEngineFactory {
    if (!this.chosen) throw new Error('the search engine is chosen when the search plugin starts');
    return this.chosen;
  }

  create(schema: EngineSchema, scope?: EngineScope): SearchEngine {
    return this.factory.create(schema, scope);
  }

  restore(snapshot: Buffer): Promise<SearchEngine> {
    return this.factory.restore(snapshot);
  }

  get persistent(): PersistentEngines | undefined {
    return this.factory.persistent;
  }
}
