import { type AwilixContainer, asFunction, asValue, createContainer, InjectionMode, Lifetime } from 'awilix';
import { bootErrors } from '../errors.js';

export function createRootContainer(): AwilixContainer {
  // Strict: a singleton cannot capture a shorter-lived dependency, and lifetimes must be explicit.
  return createContainer({ injectionMode: InjectionMode.PROXY, strict: true });
}

export function registerValue(container: AwilixContainer, name: string, value: unknown): void {
  container.register(name, asValue(value));
}

export function registerSingleton<T>(
  container: AwilixContainer,
  name: string,
  factory: () => T,
  dispose?: (value: T) => unknown,
): void {
  const resolver = asFunction(factory, { lifetime: Lifetime.SINGLETON });
  container.register(
    name,
    dispose
      ? resolver.disposer(async (value) => {
          await dispose(value);
        })
      : resolver,
  );
}

/**
 * One plugin's view of the container (after Medusa's module containers): an awilix scope of the
 * root that holds the plugin's own registrations and resolves only what its manifest consumes.
 */
export class PluginScope {
  readonly container: AwilixContainer;
  private readonly allowed = new Map<string, { optional: boolean }>();
  private readonly overrides = new Map<string, () => unknown>();

  constructor(
    root: AwilixContainer,
    readonly plugin: string,
    consumes: readonly string[],
    own: Record<string, unknown>,
  ) {
    this.container = root.createScope();
    for (const entry of consumes) {
      const optional = entry.endsWith('?');
      this.allowed.set(optional ? entry.slice(0, -1) : entry, { optional });
    }
    for (const [name, value] of Object.entries(own)) {
      this.container.register(name, asValue(value));
      this.allowed.set(name, { optional: false });
    }
  }

  /** The plugin's own value for a service the root provides (its table-scoped `db`), created on first resolve. */
  override<T>(service: string, factory: () => T): void {
    let value: { made: T } | undefined;
    this.overrides.set(service, () => {
      value ??= { made: factory() };
      return value.made;
    });
  }

  /** An optional service (`name?`) nothing provides answers undefined; a required one fails by name. */
  resolve<T>(service: string): T {
    const entry = this.allowed.get(service);
    if (!entry) throw bootErrors.serviceNotConsumed(this.plugin, service);
    if (!this.container.hasRegistration(service)) {
      if (entry.optional) return undefined as T;
      throw bootErrors.serviceNotProvided(this.plugin, service);
    }
    return this.own<T>(service);
  }

  tryResolve<T>(service: string): T | undefined {
    if (!this.allowed.has(service)) throw bootErrors.serviceNotConsumed(this.plugin, service);
    return this.container.hasRegistration(service) ? this.own<T>(service) : undefined;
  }

  private own<T>(service: string): T {
    const override = this.overrides.get(service);
    return override ? (override() as T) : this.container.resolve<T>(service);
  }

  /** Required services that nothing registered: checked once every plugin has registered. */
  unprovided(): string[] {
    return [...this.allowed]
      .filter(([name, { optional }]) => !optional && !this.container.hasRegistration(name))
      .map(([name]) => name);
  }
}
