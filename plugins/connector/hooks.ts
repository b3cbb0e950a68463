import type { SyncHook } from 'tapable';
import type { Tapable } from '../../runtime/index.js';
import type { SourceKindRegistry } from './sources/source-kind-registry.js';

/** Every hook the connector owns (the manifest lists them as connector.<key>). */
export interface ConnectorHooks {
  /**
   * Called once at start with the registry of source kinds: a plugin adds its kinds here
   * (`ctx.hooks.tap('connector.sourceKinds', 'cms', (kinds) => kinds.register(cmsKind))`), as webpack
   * plugins tap a compiler hook. The built-in kinds are registered before the taps run.
   */
  sourceKinds: SyncHook<[SourceKindRegistry]>;
}

export function createConnectorHooks(t: Tapable): ConnectorHooks {
  return { sourceKinds: new t.SyncHook<[SourceKindRegistry]>(['kinds']) };
}

declare module '../../runtime/hooks/hook-registry.js' {
  interface HookRegistry {
    'connector.sourceKinds': ConnectorHooks['sourceKinds'];
  }
}
