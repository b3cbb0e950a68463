// The gateway's published contract: the hook other plugins may tap, as types only (import type).
import type { AsyncParallelHook } from 'vela/plugin';

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

declare module 'vela/plugin' {
  interface HookRegistry {
    'gateway.upstreamStatusChanged': GatewayHooks['upstreamStatusChanged'];
  }
}
