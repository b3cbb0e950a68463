import type { IncomingMessage, ServerResponse } from 'node:http';
import { AsyncParallelHook, AsyncSeriesHook, SyncBailHook, SyncHook } from 'tapable';

export interface ReadyEvent {
  /** service name → the address it listens on (`host`, `listening`: as bound) and the URL this machine reaches it at */
  services: Record<string, { host: string; port: number; url: string; listening: string }>;
  plugins: string[];
}

export type HealthStatus = 'UP' | 'DOWN';

export interface HealthCheckResult {
  plugin: string;
  name: string;
  status: HealthStatus;
  durationMs: number;
  details?: Record<string, unknown>;
  message?: string;
}

/** Passed to `runtime.health` taps: the service being asked about, and where checks report. */
export interface HealthCollector {
  service: string;
  add(result: HealthCheckResult): void;
}

export interface HttpRequestEvent {
  service: string;
  req: IncomingMessage;
  res: ServerResponse;
}

/** What a `runtime.httpRequest` tap returns to refuse a request (a bail hook: the first answer wins). */
export interface GateDecision {
  status: number;
  error: string;
  message: string;
  headers?: Record<string, string>;
}

export interface HttpResponseEvent {
  service: string;
  method: string;
  /** The matched route pattern when express matched one, else the path (no query string). */
  route: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
}

export function createRuntimeHooks() {
  return {
    /** Every service is listening. */
    ready: new AsyncSeriesHook<[ReadyEvent]>(['event']),
    /** Stop has begun; listeners still accept in-flight work. */
    shutdown: new AsyncSeriesHook<[]>([]),
    /** `GET /health` of a service: each plugin adds its checks. */
    health: new AsyncParallelHook<[HealthCollector]>(['health']),
    /** Before routing; return a GateDecision to refuse the request. */
    httpRequest: new SyncBailHook<[HttpRequestEvent], GateDecision | undefined>(['request']),
    /** After the response is sent: timing, status, route. */
    httpResponse: new SyncHook<[HttpResponseEvent]>(['response']),
  };
}

export type RuntimeHooks = ReturnType<typeof createRuntimeHooks>;
