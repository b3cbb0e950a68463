import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import {
  Agent,
  buildConnector,
  type RequestInit as UndiciRequestInit,
  type Response as UndiciResponse,
  fetch as undiciFetch,
  request as undiciRequest,
} from 'undici';
import { VelaError } from '../errors.js';
import { forbiddenRange } from './address-rules.js';
import { forwardTarget } from './forward-path.js';

/** Resolves a host name to every address it has (the default is the system resolver). */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/**
 * Told of every address a connection is about to be opened to, after all checks passed; throwing stops that
 * connection (its error is the request's). Tests observe connections here, and block them, so a regression
 * in the checks could not send a packet anywhere.
 */
export type ConnectHook = (connection: { hostname: string; address: string }) => void;

export interface OutboundOptions {
  /**
   * Hosts (`name` or `name:port`) that may resolve to internal addresses: the operator's own services.
   * `self:<service>` stands for the addresses of one of this runtime's services (`self:connector`), as
   * `selfHosts` gives them when a request is checked, so the entry follows the service's port. The runtime's
   * guard has what the operator names for every feature (`runtime.network.allowHosts`); `forFeature` adds a
   * feature's own.
   */
  allowHosts: readonly string[];
  resolve?: HostResolver;
  /**
   * `host:port` spellings (lower case, IPv6 in brackets) a service of this runtime is reached at, for `self:` entries.
   */
  selfHosts?: (service: string) => readonly string[];
  beforeConnect?: ConnectHook;
}

/** A streamed outbound request (OutboundGuard.request). */
export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string | string[]>;
  /** The request body, streamed (a client's request, piped through) or whole. */
  body?: Readable | Uint8Array | string | null;
  /** The whole exchange, the response body included, must end within this (default 30 s): 504 otherwise. */
  timeoutMs?: number;
  /** A response body longer than this (default 50 MiB) is refused (502), or cut when it was already under way. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

/** The answer to a streamed request: the body is a stream, bounded in size and time. */
export interface OutboundStreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** The upstream could not be reached, answered too slowly, or answered too much. */
export const outboundErrors = {
  unreachable: (target: string, reason: string) =>
    new VelaError('upstream_unreachable', `${target} could not be reached: ${reason}`, 502),
  timeout: (target: string, ms: number) =>
    new VelaError('upstream_timeout', `${target} did not answer within ${ms} ms`, 504),
  tooLarge: (target: string, max: number) =>
    new VelaError('upstream_response_too_large', `the answer of ${target} is larger than ${max} bytes`, 502),
};

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** A request refused before any connection: 403 naming the rule. */
export class OutboundRefused extends VelaError {
  constructor(
    readonly rule: string,
    detail: string,
  ) {
    super('address_refused', `refused by the outbound address guard (${rule}): ${detail}`, 403);
  }
}

const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type LookupCallback = (
  error: Error | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * Outbound HTTP on a user's behalf (web sources, the integration proxy, OCR by URL): http and https only,
 * no user info, redirects never followed, and every address the host resolves to checked against the
 * internal ranges (address-rules.ts) inside the connection's own lookup, so the address checked is the
 * one connected to: there is no second DNS lookup to rebind. Hosts on the operator's allowlist skip the
 * range check (not the other rules).
 */
export class OutboundGuard {
  private readonly allow: Set<string>;
  private readonly selfServices: string[];
  private readonly selfHosts: (service: string) => readonly string[];
  private readonly resolve: HostResolver;
  private readonly beforeConnect: ConnectHook;
  private readonly guarded: Agent;
  private readonly trusted: Agent;
  /** Whether the agents are this guard's to close (a feature's guard shares its parent's). */
  private readonly ownsAgents: boolean;

  constructor(
    private readonly options: OutboundOptions,
    shared?: { guarded: Agent; trusted: Agent },
  ) {
    const entries = options.allowHosts.map((h) => h.toLowerCase());
    this.allow = new Set(entries.filter((h) => !h.startsWith('self:')));
    this.selfServices = entries.filter((h) => h.startsWith('self:')).map((h) => h.slice('self:'.length));
    this.selfHosts = options.selfHosts ?? (() => []);
    this.resolve = options.resolve ?? systemResolver;
    this.beforeConnect = options.beforeConnect ?? (() => {});
    // Both resolve through `resolve` inside the connection's own lookup; only the guarded one checks ranges.
    this.guarded = shared?.guarded ?? this.agent(true);
    this.trusted = shared?.trusted ?? this.agent(false);
    this.ownsAgents = !shared;
  }

  /**
   * The guard of one feature (OCR by URL, the integration proxy): this guard's hosts plus the feature's own
   * list, so what one feature is allowed to reach (the local connector, for the integration proxy) is not
   * every feature's. It shares this guard's connections, resolver and checks; closing it closes nothing.
   */
  forFeature(allowHosts: readonly string[]): OutboundGuard {
    if (allowHosts.length === 0) return this;
    return new OutboundGuard(
      { ...this.options, allowHosts: [...this.options.allowHosts, ...allowHosts] },
      { guarded: this.guarded, trusted: this.trusted },
    );
  }

  /**
   * The URL parsed and checked (scheme, user info, and for an IP literal its range), and whether the allowlist covers
   * it.
   */
  parse(target: string | URL): { url: URL; allowed: boolean } {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new OutboundRefused('not a URL', JSON.stringify(String(target).slice(0, 200)));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused('scheme', `only http and https are fetched, not ${url.protocol}`);
    if (url.username || url.password)
      throw new OutboundRefused('user info', 'URLs with a user name or password are not fetched');
    const allowed = this.isAllowed(url);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && isIP(literal)) {
      const rule = forbiddenRange(literal);
      if (rule) throw new OutboundRefused(rule, `${url.host} is a ${rule} address`);
    }
    return { url, allowed };
  }

  /** Resolve and check a URL's host now (to refuse a setting when it is saved, not only when it is fetched). */
  async check(target: string | URL): Promise<URL> {
    const { url, allowed } = this.parse(target);
    if (!allowed && !isIP(url.hostname.replace(/^\[|\]$/g, ''))) await this.checkedAddresses(url.hostname);
    return url;
  }

  /** fetch through the guard; `redirect` is always manual: a caller that follows a Location checks it again. */
  async fetch(
    target: string | URL,
    init: Omit<UndiciRequestInit, 'dispatcher' | 'redirect'> = {},
  ): Promise<UndiciResponse> {
    const { url, allowed } = this.parse(target);
    try {
      return await undiciFetch(url, { ...init, redirect: 'manual', dispatcher: allowed ? this.trusted : this.guarded });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      throw cause instanceof OutboundRefused ? cause : error;
    }
  }

  /**
   * A request streamed both ways through the guard: the same URL and address checks as `fetch`, no redirects
   * followed, and the exchange bounded: `timeoutMs` for all of it (504 `upstream_timeout`), `maxResponseBytes`
   * for the answer's body (502 `upstream_response_too_large` when its Content-Length says so; a body that grows
   * past it while streaming ends with that error). A connection that fails is 502 `upstream_unreachable`.
   */
  async request(target: string | URL, options: OutboundRequest = {}): Promise<OutboundStreamResponse> {
    const { url, allowed } = this.parse(target);
    const timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const shown = `${url.origin}${url.pathname}`.slice(0, 300);
    const controller = new AbortController();
    const timeout = outboundErrors.timeout(shown, timeoutMs);
    const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
    const cancel = () => controller.abort(options.signal?.reason ?? new Error('the request was cancelled'));
    options.signal?.addEventListener('abort', cancel, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
    };
    let response: Awaited<ReturnType<typeof undiciRequest>>;
    try {
      response = await undiciRequest(url, {
        method: (options.method ?? 'GET') as 'GET',
        headers: options.headers,
        body: options.body ?? null,
        dispatcher: allowed ? this.trusted : this.guarded,
        signal: controller.signal,
        maxRedirections: 0,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      done();
      const cause = (error as { cause?: unknown }).cause;
      if (controller.signal.aborted && controller.signal.reason === timeout) throw timeout;
      // A refusal, or the request body's own error (a client's body over the proxy's limit is 413): as it is.
      if (error instanceof VelaError) throw error;
      if (cause instanceof VelaError) throw cause;
      if (controller.signal.aborted) throw controller.signal.reason;
      throw outboundErrors.unreachable(shown, (error as Error).message);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      done();
      response.body.on('error', () => {}); // destroying it emits an abort error nobody else listens for
      response.body.destroy();
      throw outboundErrors.tooLarge(shown, maxBytes);
    }
    let seen = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        callback(seen > maxBytes ? outboundErrors.tooLarge(shown, maxBytes) : null, chunk);
      },
    });
    response.body.on('error', (error) => bounded.destroy(controller.signal.reason === timeout ? timeout : error));
    bounded.on('close', () => {
      done();
      if (!response.body.destroyed) response.body.destroy();
    });
    response.body.pipe(bounded);
    return { status: response.statusCode, headers: response.headers, body: bounded };
  }

  /**
   * The URL a reverse proxy forwards to, under the path rules of runtime/network/forward-path.ts (no `..`,
   * `//`, `@`, backslashes or absolute URLs in the forwarded path, encoded or not; only `allowedPrefixes`),
   * 403 `path_refused` naming the rule. The address checks follow when it is requested.
   */
  forwardTarget(
    endpoint: string | URL,
    forwardedPath: string,
    query = '',
    allowedPrefixes: readonly string[] = [],
  ): URL {
    return forwardTarget(endpoint, forwardedPath, query, allowedPrefixes);
  }

  async close(): Promise<void> {
    if (this.ownsAgents) await Promise.all([this.guarded.close(), this.trusted.close()]);
  }

  private isAllowed(url: URL): boolean {
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    if (this.allow.has(host) || this.allow.has(`${host}:${port}`)) return true;
    return this.selfServices.some((service) => this.selfHosts(service).includes(`${host}:${port}`));
  }

  private agent(checkRanges: boolean): Agent {
    const lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) =>
      this.lookup(hostname, options, callback, checkRanges);
    const connect = buildConnector({ lookup } as buildConnector.BuildOptions);
    return new Agent({
      connect: (options, callback) => {
        // An IP literal is connected to without a lookup: its checks happen here.
        const literal = options.hostname.replace(/^\[|\]$/g, '');
        if (isIP(literal)) {
          try {
            this.approve(literal, [{ address: literal }], checkRanges);
          } catch (error) {
            callback(error as Error, null);
            return;
          }
        }
        connect(options, callback);
      },
    });
  }

  /** The last word before a socket opens: the addresses' ranges (unless the host is allowed), then the hook. */
  private approve(hostname: string, addresses: ReadonlyArray<{ address: string }>, checkRanges: boolean): void {
    if (checkRanges) for (const { address } of addresses) this.refuseInternal(hostname, address);
    for (const { address } of addresses) this.beforeConnect({ hostname, address });
  }

  private async checkedAddresses(
    hostname: string,
    checkRanges = true,
  ): Promise<Array<{ address: string; family: number }>> {
    const addresses = await this.resolve(hostname);
    if (addresses.length === 0) throw new OutboundRefused('unresolved', `${hostname} has no address`);
    // Every address is checked, not only the first: a name with one public and one internal record could
    // otherwise be connected to the internal one.
    if (checkRanges) for (const { address } of addresses) this.refuseInternal(hostname, address);
    return addresses;
  }

  private refuseInternal(hostname: string, address: string): void {
    const rule = forbiddenRange(address);
    if (rule)
      throw new OutboundRefused(
        rule,
        hostname === address
          ? `${address} is a ${rule} address`
          : `${hostname} resolves to ${address}, a ${rule} address`,
      );
  }

  private lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback, checkRanges: boolean): void {
    this.checkedAddresses(hostname, checkRanges).then(
      (addresses) => {
        // Only the addresses handed to the socket are approved: all of them, or the first.
        const used = options.all ? addresses : addresses.slice(0, 1);
        try {
          this.approve(hostname, used, false);
        } catch (error) {
          callback(error as Error, options.all ? [] : '');
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, options.all ? [] : ''),
    );
  }
}
