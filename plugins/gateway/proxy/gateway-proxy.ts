import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { type Logger, SECURITY_HEADERS } from 'vela/plugin';
import { proxyErrors } from '../errors.js';
import type { ResponseTimeRecorder } from '../metrics/response-time-recorder.js';
import type { TokenStore } from '../oauth/token-store.js';
import { type Deadline, Deadlines } from './deadlines.js';
import { hasDotSegment } from './dot-segments.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './forwarded-headers.js';
import { matchRoute, type ProxyRoute, type RouteTable, upstreamPath } from './route-table.js';

const BEARER = /^bearer +([^\s,]+) *$/i;
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;
const UNAUTHORIZED_NO_TOKEN = { 'WWW-Authenticate': 'Bearer realm="vela-gateway"', 'Content-Length': '0' };
const UNAUTHORIZED_BAD_TOKEN = { 'WWW-Authenticate': 'Bearer realm="vela-gateway", error="invalid_token"', 'Content-Length': '0' };

function sendError(res: ServerResponse, failure: { status: number; error: string; message: string; retryAfter?: number }, close = false): void {
  const body = JSON.stringify({ error: failure.error, message: failure.message });
  // The gateway's own answers carry the headers express would have added; upstream answers stay the upstream's.
  res.writeHead(failure.status, {
    ...SECURITY_HEADERS,
    ...(failure.retryAfter ? { 'Retry-After': String(failure.retryAfter) } : {}),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(body);
}

/**
 * The bearer-token proxy, on the service's raw request path (ctx.intercept): it claims a request
 * whose first path segment names a mapping (`/<name>/...`, or `/proxy/<name>/...` as the original
 * wrote it), checks the token from memory, and streams the request to the upstream and the answer
 * back. Everything else falls through to express.
 */
export class GatewayProxy {
  private readonly deadlines = new Deadlines();

  constructor(
    private readonly table: RouteTable,
    private readonly tokens: TokenStore,
    private readonly recorder: ResponseTimeRecorder,
    private readonly logger: Logger,
  ) {}

  /** Stop the timeout timer (at plugin stop). */
  stop(): void {
    this.deadlines.stop();
  }

  readonly intercept = (req: IncomingMessage, res: ServerResponse): boolean => {
    let url = req.url ?? '/';
    // A server must accept the absolute-form too (RFC 9112 §3.2.2): `GET http://host/orders/v1 HTTP/1.1`.
    if (url.charCodeAt(0) !== 47 /* / */) {
      const origin = ABSOLUTE_FORM.exec(url);
      if (!origin) return false;
      url = url.slice(origin[0].length) || '/';
      if (url.charCodeAt(0) !== 47) url = `/${url}`;
    }
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    let slash = path.indexOf('/', 1);
    let name = slash < 0 ? path.slice(1) : path.slice(1, slash);
    if (name === 'proxy' && slash > 0) {
      path = path.slice(slash);
      slash = path.indexOf('/', 1);
      name = slash < 0 ? path.slice(1) : path.slice(1, slash);
    }
    const routes = this.table.routesFor(name);
    if (!routes) return false;

    const authorization = req.headers.authorization;
    const bearer = authorization ? BEARER.exec(authorization) : null;
    if (!bearer) {
      // The spec's "empty response" for an invalid token, with the status and challenge of RFC 6750.
      res.writeHead(401, authorization ? UNAUTHORIZED_BAD_TOKEN : UNAUTHORIZED_NO_TOKEN);
      res.end();
      return true;
    }
    if (this.tokens.appOfBearer(bearer[1]!) === null) {
      // Not in memory: perhaps issued by another process a moment ago. Asked of the store before refusing.
      void this.tokens.lookupBearer(bearer[1]!).then((found) => {
        if (res.destroyed) return;
        if (found === 'unavailable') sendError(res, proxyErrors.storeUnavailable(), !req.readableEnded);
        else if (found === 'busy') sendError(res, proxyErrors.lookupsBusy(), !req.readableEnded);
        else if (found === null) {
          res.writeHead(401, UNAUTHORIZED_BAD_TOKEN);
          res.end();
        } else this.route(req, res, name, path, slash, url, q, routes);
      });
      return true;
    }
    this.route(req, res, name, path, slash, url, q, routes);
    return true;
  };

  private route(req: IncomingMessage, res: ServerResponse, name: string, path: string, slash: number, url: string, q: number, routes: ProxyRoute[]): void {
    const rest = slash < 0 ? '' : path.slice(slash);
    if (hasDotSegment(rest)) {
      sendError(res, proxyErrors.badPath());
      return;
    }
    const matched = matchRoute(routes, rest);
    if (!matched) {
      sendError(res, proxyErrors.noRoute(name, path));
      return;
    }
    this.forward(req, res, matched.route, upstreamPath(matched.route, matched.remainder, q < 0 ? '' : url.slice(q + 1)));
  }

  private forward(req: IncomingMessage, res: ServerResponse, route: ProxyRoute, path: string): void {
    const started = performance.now();
    const chunked = req.headers['transfer-encoding'] !== undefined;
    const options = {
      hostname: route.hostname,
      port: route.port,
      method: req.method,
      path,
      headers: upstreamRequestHeaders(req, route.hostHeader, chunked),
      agent: route.agent,
    };
    const upstream = route.https ? https.request(options) : http.request(options);
    let timedOut = false;
    let clientGone = false;
    let answered = false;
    let failed = false;

    upstream.on('response', (answer) => {
      answered = true;
      this.deadlines.remove(deadline);
      this.recorder.record(route.slot, answer.statusCode ?? 502, (performance.now() - started) * 1000);
      try {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, clientResponseHeaders(answer.rawHeaders));
      } catch (error) {
        // A header Node will not write (it parsed, but is not valid to send): the upstream's answer is unusable.
        answer.resume();
        sendError(res, proxyErrors.unreachable(route.name, (error as NodeJS.ErrnoException).code ?? 'invalid response header'));
        return;
      }
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    const fail = (cause: string) => {
      this.deadlines.remove(deadline);
      if (failed || clientGone) return;
      failed = true;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const failure = timedOut ? proxyErrors.timeout(route.name, route.timeoutMs) : proxyErrors.unreachable(route.name, cause);
      this.recorder.record(route.slot, failure.status, (performance.now() - started) * 1000);
      this.logger.debug({ mapping: route.name, status: failure.status, cause }, 'upstream failed');
      // The client may still be sending a body the upstream will never read: answer and close.
      const unread = !req.readableEnded;
      if (unread) {
        req.unpipe(upstream);
        req.resume();
      }
      sendError(res, failure, unread);
    };
    // One deadline from the start: until the upstream has the whole request it measures progress (a
    // connection that never opens, an upstream that stops reading the body), then the time to answer.
    const deadline: Deadline = this.deadlines.add(route.timeoutMs, () => {
      timedOut = true;
      upstream.destroy(new Error('timeout'));
    });
    const extend = () => {
      deadline.at = Date.now() + route.timeoutMs;
    };
    upstream.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    // Node closes the request without an 'error' after an answer it does not hand over (a 101
    // Switching Protocols nobody asked for): without this the client would wait for ever.
    upstream.on('close', () => {
      if (!answered) fail('the upstream closed the connection without an answer');
    });
    // Once it has the whole request, the upstream has timeoutMs to answer (it may answer before that).
    upstream.on('finish', () => {
      if (!answered) extend();
    });
    // A client gone before the end takes the upstream request with it.
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
    req.on('error', () => upstream.destroy());

    if (req.headers['content-length'] === undefined && !chunked) {
      upstream.end();
      req.resume();
    } else {
      req.on('data', extend);
      req.pipe(upstream);
    }
  }
}
