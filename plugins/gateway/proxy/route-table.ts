import type { Pool } from 'undici';
import type { Logger } from 'vela/plugin';
import { type ParsedContext, parseContext } from '../mappings/mapping-fields.js';
import type { Mapping } from '../store/mapping-store.js';
import type { UpstreamAgents } from './upstream-agents.js';

/** A mapping compiled for the proxy: everything a request needs, computed once per change. */
export interface ProxyRoute {
  mappingId: string;
  name: string;
  /** `/<sub_path>` after the name, or '' when the mapping takes every path under the name. */
  subPath: string;
  /** The Host header upstream requests carry. */
  hostHeader: string;
  /** The upstream URL's path without a trailing slash ('' for the root). */
  basePath: string;
  /** The upstream URL's own path, used as is when the request adds nothing after the sub-path. */
  fullPath: string;
  /** The upstream URL's own query (without '?'), or ''. */
  baseQuery: string;
  timeoutMs: number;
  /** The upstream origin's connection pool (shared by the mappings of one origin). */
  pool: Pool;
  /** The response-time recorder's slot of this mapping. */
  slot: number;
}

/**
 * Mapping name → its compiled routes, longest sub-path first, rebuilt from the mapping store on
 * every change: the proxy looks up a request's first path segment here without touching express.
 */
export class RouteTable {
  private byName = new Map<string, ProxyRoute[]>();

  constructor(
    private readonly agents: UpstreamAgents,
    private readonly slotOf: (mappingId: string) => number,
    private readonly logger?: Logger,
  ) {}

  rebuild(mappings: readonly Mapping[]): void {
    const next = new Map<string, ProxyRoute[]>();
    const origins = new Set<string>();
    for (const mapping of mappings) {
      let parsed: ParsedContext;
      try {
        parsed = parseContext(mapping.context);
      } catch (error) {
        // Stored before a stricter rule (or by another version): serve the others, and say which one is left out.
        this.logger?.warn(
          { mapping: mapping.id, context: mapping.context, reason: (error as Error).message },
          'a stored mapping has a context the proxy cannot serve; edit its context',
        );
        continue;
      }
      const { name, subPath } = parsed;
      const url = new URL(mapping.url);
      origins.add(url.origin);
      const route: ProxyRoute = {
        mappingId: mapping.id,
        name,
        subPath,
        hostHeader: url.host,
        basePath: url.pathname.replace(/\/+$/, ''),
        fullPath: url.pathname,
        baseQuery: url.search.slice(1),
        timeoutMs: mapping.timeoutMs,
        pool: this.agents.poolFor(url),
        slot: this.slotOf(mapping.id),
      };
      const list = next.get(name) ?? [];
      list.push(route);
      next.set(name, list);
    }
    for (const list of next.values()) list.sort((a, b) => b.subPath.length - a.subPath.length);
    this.byName = next;
    this.agents.retain(origins);
  }

  routesFor(name: string): ProxyRoute[] | undefined {
    return this.byName.get(name);
  }
}

/** The route serving `rest` (the path after `/<name>`) and what follows its sub-path, if any. */
export function matchRoute(routes: ProxyRoute[], rest: string): { route: ProxyRoute; remainder: string } | null {
  for (const route of routes) {
    const sub = route.subPath;
    if (sub === '' || rest === sub || (rest.startsWith(sub) && rest.charCodeAt(sub.length) === 47) /* / */) {
      return { route, remainder: rest.slice(sub.length) };
    }
  }
  return null;
}

/** The upstream request path: the upstream URL's path plus the rest of the request path and both queries. */
export function upstreamPath(route: ProxyRoute, remainder: string, query: string): string {
  const path =
    remainder === '' || (remainder === '/' && route.fullPath.endsWith('/'))
      ? route.fullPath
      : route.basePath + remainder;
  const q = route.baseQuery && query ? `${route.baseQuery}&${query}` : route.baseQuery || query;
  return q ? `${path || '/'}?${q}` : path || '/';
}
