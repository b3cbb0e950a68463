import type { IncomingHttpHeaders } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  HOP_BY_HOP_HEADERS,
  type OutboundGuard,
  type Request,
  type Response,
  SECURITY_HEADERS,
  VelaError,
} from 'vela/plugin';
import type { IntegrationStore } from '../store/integration-store.js';

/** `plugins.integration`: the proxy's bounds. */
export interface ProxyLimits {
  /** The whole exchange with the upstream, the answer's body included. */
  timeoutMs: number;
  /** Largest request body forwarded (bytes). */
  maxRequestBytes: number;
  /** Largest answer body relayed (bytes). */
  maxResponseBytes: number;
}

export const PROXY_PREFIX = '/api/v2/integration/';

// What a client's request may carry to an upstream: content negotiation, the body's own headers, conditional
// and range requests, tracing. Everything else stays here: Vela's credentials (Key, Authorization, cookies,
// X-CSRF-Token), Host, hop-by-hop headers, and whatever else a client might add.
const FORWARDED_REQUEST_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-encoding',
  'content-language',
  'content-length',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'pragma',
  'range',
  'traceparent',
  'tracestate',
  'user-agent',
  'x-request-id',
]);

// What an upstream's answer may not set here: hop-by-hop headers, cookies (the answer is served from the
// search service's origin, the console's), CORS (the runtime answers it per route) and the security headers
// every answer of the service already carries (and HSTS, which is the operator's to set for the host).
const DROPPED_RESPONSE_HEADERS = new Set([
  ...HOP_BY_HOP_HEADERS,
  'set-cookie',
  ...Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()),
  'strict-transport-security',
]);

export const proxyErrors = {
  method: (method: string, allowed: readonly string[]) =>
    new VelaError(
      'method_not_allowed',
      `this integration instance forwards ${allowed.join(', ')}, not ${method}`,
      405,
    ).withHeaders({
      Allow: allowed.join(', '),
    }),
  tooLarge: (max: number) =>
    new VelaError(
      'payload_too_large',
      `the request body is larger than the proxy limit of ${max} bytes (plugins.integration.maxRequestBytes)`,
      413,
    ),
};

/** HEAD is a GET without the body: an instance that forwards GET forwards HEAD too. */
function methodAllowed(method: string, allowed: readonly string[]): boolean {
  return allowed.includes(method) || (method === 'HEAD' && allowed.includes('GET'));
}

/**
 * The id, the path after it (as it arrived, percent-encoding kept) and the query string of a proxy request. The
 * request target may be in absolute form (`GET http://host:port/api/v2/integration/...`, as sent to proxies):
 * its scheme and authority are not part of the path.
 */
export function splitProxyUrl(originalUrl: string): { id: string; rest: string; query: string } {
  const q = originalUrl.indexOf('?');
  const target = q < 0 ? originalUrl : originalUrl.slice(0, q);
  const query = q < 0 ? '' : originalUrl.slice(q + 1);
  const path = target.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/, '');
  const after = path.slice(PROXY_PREFIX.length);
  const slash = after.indexOf('/');
  const rawId = slash < 0 ? after : after.slice(0, slash);
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  return { id, rest: slash < 0 ? '' : after.slice(slash), query };
}

/**
 * The integration proxy: `/api/v2/integration/<id>/<path>` goes to the instance's endpoint with the method,
 * the path after the id, the query string, a streamed body and the safe headers (plus the instance's own,
 * decrypted), through the runtime's outbound guard: the path rules (403 path_refused), the address rules
 * (403 address_refused, unless the operator allows the host), no redirects, and the time and size bounds.
 * The answer's status, headers (less hop-by-hop, cookies and security headers) and body stream back.
 */
export class IntegrationProxy {
  constructor(
    private readonly store: IntegrationStore,
    private readonly outbound: () => OutboundGuard,
    private readonly limits: ProxyLimits,
  ) {}

  async forward(req: Request, res: Response): Promise<void> {
    const { id, rest, query } = splitProxyUrl(req.originalUrl);
    const { integration, headers: added } = this.store.target(id);
    const method = req.method.toUpperCase();
    if (!methodAllowed(method, integration.allowedMethods))
      throw proxyErrors.method(method, integration.allowedMethods);
    const guard = this.outbound();
    const target = guard.forwardTarget(integration.endpoint, rest, query, integration.allowedPaths);

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.limits.maxRequestBytes)
      throw proxyErrors.tooLarge(this.limits.maxRequestBytes);
    const hasBody = (Number.isFinite(declared) && declared > 0) || req.headers['transfer-encoding'] !== undefined;

    // The client going away ends the upstream request too.
    const cancel = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) cancel.abort(new Error('the client closed the connection'));
    });
    const upstream = await guard.request(target, {
      method,
      headers: { ...forwardedHeaders(req.headers), ...added },
      body: hasBody && method !== 'GET' && method !== 'HEAD' ? bounded(req, this.limits.maxRequestBytes) : null,
      timeoutMs: this.limits.timeoutMs,
      maxResponseBytes: this.limits.maxResponseBytes,
      signal: cancel.signal,
    });
    res.status(upstream.status);
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name) && !name.startsWith('access-control-'))
        res.setHeader(name, value);
    }
    try {
      await pipeline(upstream.body, res);
    } catch {
      // The answer had begun: a body that fails later (too large, too slow, the upstream gone) can only be cut.
      res.destroy();
    }
  }
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && FORWARDED_REQUEST_HEADERS.has(name)) out[name] = value;
  }
  return out;
}

/**
 * The client's body as it streams, failing with 413 once it passes the limit (a chunked body has no length to check
 * first).
 */
function bounded(body: Readable, max: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > max ? proxyErrors.tooLarge(max) : null, chunk);
    },
  });
  body.on('error', (error) => counter.destroy(error));
  return body.pipe(counter);
}
