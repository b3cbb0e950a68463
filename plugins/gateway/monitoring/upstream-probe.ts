import http from 'node:http';
import https from 'node:https';
import type { UpstreamStatus } from '../api.js';
import type { Mapping } from '../store/mapping-store.js';

export interface ProbeResult {
  status: Exclude<UpstreamStatus, 'UNKNOWN'>;
  latencyMs: number | null;
  message: string;
}

/**
 * One health check of a mapping's upstream: GET of its healthCheckPath on the upstream's origin
 * (up on 2xx/3xx), or else HEAD of its URL (up on any answer below 500: the server is there).
 */
export function probeUpstream(mapping: Mapping, timeoutMs: number): Promise<ProbeResult> {
  const base = new URL(mapping.url);
  const target = mapping.healthCheckPath ? new URL(mapping.healthCheckPath, base.origin) : base;
  const method = mapping.healthCheckPath ? 'GET' : 'HEAD';
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      { method, agent: false, headers: { 'user-agent': 'vela-gateway-monitor' } },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const up = mapping.healthCheckPath ? status >= 200 && status < 400 : status < 500;
        finish({
          status: up ? 'UP' : 'DOWN',
          latencyMs: Math.round((performance.now() - started) * 100) / 100,
          message: `${method} ${target.pathname} answered HTTP ${status}`,
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        status: 'DOWN',
        latencyMs: null,
        message: `${method} ${target.pathname} got no answer within ${timeoutMs} ms`,
      });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: 'DOWN',
        latencyMs: null,
        message: `${method} ${target.pathname} failed: ${error.code ?? error.message}`,
      }),
    );
    request.end();
  });
}
