import { Pool } from 'undici';

/**
 * One undici connection pool per upstream origin, with a bounded number of keep-alive connections,
 * so a proxied request reuses a warm connection instead of opening one. undici rather than
 * `http.request`: measured at about 15 % less CPU per proxied request (docs/BENCHMARKS.md).
 */
export class UpstreamAgents {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly maxSocketsPerUpstream: number) {}

  poolFor(url: URL): Pool {
    let pool = this.pools.get(url.origin);
    if (!pool) {
      // No undici header or body timeouts: they would arm a timer per request (hot path). The proxy's
      // own deadlines bound the wait for an answer, as with the node:http agents before.
      pool = new Pool(url.origin, { connections: this.maxSocketsPerUpstream, headersTimeout: 0, bodyTimeout: 0 });
      this.pools.set(url.origin, pool);
    }
    return pool;
  }

  /**
   * Forget the pools of origins no mapping uses any more: their idle connections close now, and the
   * ones still carrying a request finish it and then close (a mapping edit cuts nothing off).
   */
  retain(origins: Set<string>): void {
    for (const [origin, pool] of this.pools) {
      if (origins.has(origin)) continue;
      // A graceful close: queued and running requests complete, then every connection is closed.
      pool.close().catch(() => undefined);
      this.pools.delete(origin);
    }
  }

  destroyAll(): void {
    for (const pool of this.pools.values()) pool.destroy().catch(() => undefined);
    this.pools.clear();
  }
}
