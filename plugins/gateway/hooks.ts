import type { AsyncParallelHook } from 'tapable';
import type { Tapable } from '../../runtime/index.js';

export type UpstreamStatus = 'UP' | 'DOWN' | 'UNKNOWN';

/** What a tap on gateway.upstreamStatusChanged receives: one mapping's upstream changing state. */
export interface UpstreamStatusChange {
  mappingId: string;
  name: string;
  context: string;
  url: string;
  from: UpstreamStatus;
  to: UpstreamStatus;
  latencyMs: number | null;
  message: string;
  at: string;
}

/** Every hook the gateway owns (the manifest lists them as gateway.<key>). */
export interface GatewayHooks {
  /** Fired on every change of a mapping's upstream status found by the health checks (to alert). */
  upstreamStatusChanged: AsyncParallelHook<[UpstreamStatusChange]>;
}

export function createGatewayHooks(t: Tapable): GatewayHooks {
  return { upstreamStatusChanged: new t.AsyncParallelHook<[UpstreamStatusChange]>(['change']) };
}

declare module '../../runtime/hooks/hook-registry.js' {
  interface HookRegistry {
    'gateway.upstreamStatusChanged': GatewayHooks['upstreamStatusChanged'];
  }
}
