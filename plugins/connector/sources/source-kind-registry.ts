import { validateAgainst } from 'vela/plugin';
import type { SourceKind } from '../api.js';
import { connectorErrors } from '../errors.js';

/** The kinds of source the connector can read, by name: the built-ins and those plugins add. */
export class SourceKindRegistry {
  private readonly kinds = new Map<string, SourceKind<never>>();

  register<Settings>(kind: SourceKind<Settings>): void {
    if (!/^[a-z][a-z0-9-]{0,39}$/.test(kind.name))
      throw new Error(`a source kind's name must match ^[a-z][a-z0-9-]{0,39}$, got ${JSON.stringify(kind.name)}`);
    if (this.kinds.has(kind.name)) throw new Error(`source kind "${kind.name}" is registered twice`);
    this.kinds.set(kind.name, kind as unknown as SourceKind<never>);
  }

  has(name: string): boolean {
    return this.kinds.has(name);
  }

  names(): string[] {
    return [...this.kinds.keys()].sort();
  }

  get(name: string): SourceKind<Record<string, unknown>> {
    const kind = this.kinds.get(name);
    if (!kind) throw connectorErrors.unknownKind(name, this.names());
    return kind as unknown as SourceKind<Record<string, unknown>>;
  }

  /** The kind's name, for a source of the connector's API: a kind only its plugin makes sources of is a 400. */
  checkOffered(name: string): void {
    if (this.get(name).pluginOnly)
      throw connectorErrors.invalidParameter(
        `kind "${name}"`,
        "is made only by its plugin (through that plugin's API), as its settings name that plugin's records: choose another kind",
      );
  }

  /** The kind's settings with defaults filled, or a 400 naming each problem. */
  checkSettings(kindName: string, settings: unknown): Record<string, unknown> {
    const kind = this.get(kindName);
    const result = validateAgainst<Record<string, unknown>>(kind.settingsSchema, settings ?? {}, {
      applyDefaults: true,
      root: 'settings',
    });
    if (!result.valid) throw connectorErrors.invalidSettings(kindName, result.problems);
    const problems = kind.checkSettings?.(result.value) ?? [];
    if (problems.length > 0) throw connectorErrors.invalidSettings(kindName, problems);
    return result.value;
  }

  describe(): Array<{ name: string; description: string; settingsSchema: Record<string, unknown>; pluginOnly?: true }> {
    return this.names().map((name) => {
      const kind = this.kinds.get(name)!;
      return {
        name,
        description: kind.description,
        settingsSchema: kind.settingsSchema,
        ...(kind.pluginOnly ? { pluginOnly: true as const } : {}),
      };
    });
  }
}
