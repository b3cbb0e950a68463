import { SyncHook } from 'vela/plugin';
import type { ConnectorHooks, SourceKinds } from './api.js';

/** The connector's hooks (the manifest lists them as connector.<key>; their types are in api.ts). */
export function createConnectorHooks(): ConnectorHooks {
  return { sourceKinds: new SyncHook<[SourceKinds]>(['kinds']) };
}
