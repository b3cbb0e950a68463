import { HookMap } from 'tapable';
import { bootErrors } from '../errors.js';
import type { HookName, HookRegistry, MapEntry, PromiseTapFn, SyncTapFn } from './hook-registry.js';

/** A tapable `tap`/`tapPromise` method, as the bus calls it. */
type TapMethod = (options: object, fn: unknown) => void;

interface DeclaredHook {
  owner: string;
  hook: unknown;
}

interface PendingTap {
  hook: string;
  tapName: string;
  apply: (hook: unknown) => void;
}

interface TapOptions {
  /** tapable stage: lower runs first (default 0). */
  stage?: number;
  /** Run before the taps with these names (full names, `<plugin>:<tap>`). */
  before?: string | string[];
}

/**
 * The runtime's hook bus. Owners declare hooks in one object; taps are collected during register
 * and applied once every plugin has registered, so a tap may name a hook of any loaded plugin and
 * a tap on a hook nobody declared fails the start with the hook's name.
 */
export class HookBus {
  private readonly declared = new Map<string, DeclaredHook>();
  private pending: PendingTap[] = [];
  private sealed = false;

  /** Declare `hooks` as `<owner>.<key>`. `allowed` is the manifest's list, which must match exactly. */
  declare<T extends object>(owner: string, hooks: T, allowed?: readonly string[]): T {
    for (const [key, hook] of Object.entries(hooks)) {
      const name = `${owner}.${key}`;
      if (allowed && !allowed.includes(name)) {
        throw bootErrors.hookDeclaration(owner, `declares hook "${name}", which its manifest does not list in "hooks"`);
      }
      if (this.declared.has(name)) throw bootErrors.hookDeclaration(owner, `hook "${name}" is declared twice`);
      if (
        !hook ||
        typeof hook !== 'object' ||
        (typeof (hook as { tap?: unknown }).tap !== 'function' && !(hook instanceof HookMap))
      ) {
        throw bootErrors.hookDeclaration(owner, `"${name}" is not a tapable hook or HookMap`);
      }
      this.declared.set(name, { owner, hook });
    }
    return Object.freeze(hooks);
  }

  /** Hooks a manifest lists that its plugin never declared: checked after register. */
  missingDeclarations(owner: string, listed: readonly string[]): string[] {
    return listed.filter((name) => this.declared.get(name)?.owner !== owner);
  }

  tap<K extends HookName>(hook: K, tapName: string, fn: SyncTapFn<HookRegistry[K]>, options: TapOptions = {}): void {
    this.enqueue(hook, tapName, (h) => (h as { tap: TapMethod }).tap({ name: tapName, ...options }, fn));
  }

  tapPromise<K extends HookName>(
    hook: K,
    tapName: string,
    fn: PromiseTapFn<HookRegistry[K]>,
    options: TapOptions = {},
  ): void {
    this.enqueue(hook, tapName, (h) => {
      if (typeof (h as { tapPromise?: unknown }).tapPromise !== 'function') {
        throw bootErrors.hookDeclaration(
          this.declared.get(hook)!.owner,
          `hook "${hook}" is synchronous; tap "${tapName}" must use tap(), not tapPromise()`,
        );
      }
      (h as { tapPromise: TapMethod }).tapPromise({ name: tapName, ...options }, fn);
    });
  }

  /** Tap the hook that a HookMap holds for `key` (per site, per source kind, ...). */
  tapFor<K extends HookName>(
    hook: K,
    key: string,
    tapName: string,
    fn: SyncTapFn<MapEntry<HookRegistry[K]>> | PromiseTapFn<MapEntry<HookRegistry[K]>>,
    kind: 'sync' | 'promise' = 'sync',
  ): void {
    this.enqueue(hook, tapName, (h) => {
      if (!(h instanceof HookMap))
        throw bootErrors.hookDeclaration(
          this.declared.get(hook)!.owner,
          `hook "${hook}" is not a HookMap; tap it without a key`,
        );
      const entry = h.for(key) as Record<string, TapMethod>;
      entry[kind === 'sync' ? 'tap' : 'tapPromise']!.call(entry, { name: tapName }, fn);
    });
  }

  /** The hook object, for its owner to call and for code that runs after register. */
  get<K extends HookName>(hook: K): HookRegistry[K] {
    const found = this.declared.get(hook);
    if (!found) throw bootErrors.hookUndeclared(hook, '(lookup)');
    return found.hook as HookRegistry[K];
  }

  has(hook: string): boolean {
    return this.declared.has(hook);
  }

  /** Names of declared hooks with their owners and tap names: the extension API, for docs and tests. */
  describe(): Array<{ name: string; owner: string; taps: string[] }> {
    return [...this.declared.entries()].map(([name, { owner, hook }]) => ({
      name,
      owner,
      taps: ((hook as { taps?: Array<{ name: string }> }).taps ?? []).map((t) => t.name),
    }));
  }

  /** Apply every collected tap; any tap on an undeclared hook fails here, naming the hook. */
  applyPendingTaps(): void {
    const pending = this.pending;
    this.pending = [];
    for (const tap of pending) {
      const found = this.declared.get(tap.hook);
      if (!found) throw bootErrors.hookUndeclared(tap.hook, tap.tapName);
      tap.apply(found.hook);
    }
    this.sealed = true;
  }

  private enqueue(hook: string, tapName: string, apply: (hook: unknown) => void): void {
    if (!tapName) throw bootErrors.hookDeclaration('?', `a tap on "${hook}" has no name; every tap is named`);
    const entry = { hook, tapName, apply };
    // After start, taps apply at once (a plugin may tap lazily, e.g. per site created).
    if (this.sealed) {
      const found = this.declared.get(hook);
      if (!found) throw bootErrors.hookUndeclared(hook, tapName);
      apply(found.hook);
    } else {
      this.pending.push(entry);
    }
  }
}
