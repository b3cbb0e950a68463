import type { OutboundFetch } from 'vela/plugin';
import { readBounded } from './bounded-body.js';

/** A node of the repository as the Sling JSON rendering gives it: properties, and child nodes as objects. */
export type SlingNode = Record<string, unknown>;

export interface SlingClientOptions {
  /** The repository's base URL, without a trailing slash. */
  endpoint: string;
  username: string;
  password: string;
  /** Through the runtime's outbound guard. */
  fetch: OutboundFetch;
  signal?: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
}

/**
 * Reads nodes of an AEM-compatible repository through Sling's JSON rendering: `<path>.<depth>.json` or
 * `<path>.infinity.json`, with basic auth. Sling answers a rendering too large for it with a list of
 * shallower renderings (300, or 200 with a JSON array): the first is followed, once, and only on the
 * repository's own origin, where the credentials belong.
 */
export class SlingClient {
  private readonly authorization: string;

  constructor(private readonly options: SlingClientOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  }

  /** The node at `path` to `depth` levels of children; null when the repository has no such node. */
  async node(path: string, depth: number | 'infinity'): Promise<SlingNode | null> {
    const url = `${this.options.endpoint}${encodeURI(path)}.${depth}.json`;
    const first = await this.get(url);
    if (first === null || !Array.isArray(first)) return first;
    const next = first.find((entry): entry is string => typeof entry === 'string');
    if (!next) throw new Error(`GET ${url} answered a list of renderings without one to follow`);
    const target = new URL(next, url);
    if (target.origin !== new URL(url).origin)
      throw new Error(
        `GET ${url} listed a rendering on another origin (${target.origin}), which is not followed with the repository's credentials`,
      );
    const followed = await this.get(target.href);
    if (Array.isArray(followed))
      throw new Error(`GET ${url}: the repository found even its shallower rendering too large`);
    return followed;
  }

  private async get(url: string): Promise<SlingNode | unknown[] | null> {
    const signals = [
      AbortSignal.timeout(this.options.timeoutMs),
      ...(this.options.signal ? [this.options.signal] : []),
    ];
    const res = await this.options.fetch(url, {
      headers: { authorization: this.authorization, accept: 'application/json' },
      signal: AbortSignal.any(signals),
    });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    if (res.status !== 200 && res.status !== 300) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(
        `GET ${url} answered ${res.status}${res.status === 401 ? ' (check the source username and password)' : ''}`,
      );
    }
    const text = await readBounded(res, this.options.maxBytes, `the answer of GET ${url}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`GET ${url} did not answer JSON (is ${this.options.endpoint} a Sling repository?)`);
    }
    if (Array.isArray(parsed)) return parsed;
    if (parsed === null || typeof parsed !== 'object') throw new Error(`GET ${url} did not answer a node`);
    return parsed as SlingNode;
  }
}
