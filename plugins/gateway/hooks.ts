import { AsyncParallelHook } from 'vela/plugin';
import type { GatewayHooks, UpstreamStatusChange } from './api.js';

/** The gateway's hooks (the manifest lists them as gateway.<key>; their types are in api.ts). */
export function createGatewayHooks(): GatewayHooks {
  return { upstreamStatusChanged: new AsyncParallelHook<[UpstreamStatusChange]>(['change']) };
}
