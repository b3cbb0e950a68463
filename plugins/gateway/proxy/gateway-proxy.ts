import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
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
  readonly deadlines = new Deadlines();

  constructor(
    private readonly table: RouteTable,
    private readonly tokens: TokenStore,
    readonly recorder: ResponseTimeRecorder,
    readonly logger: Logger,
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
    const upstream = (route.https ? https.request(options) : http.request(options)) as Tagged<ClientRequest>;
    const exchange = new Exchange(this, req, res, route, upstream, started);
    upstream[EXCHANGE] = exchange;
    (res as Tagged<ServerResponse>)[EXCHANGE] = exchange;
    // One deadline from the start: until the upstream has the whole request it measures progress (a
    // connection that never opens, an upstream that stops reading the body), then the time to answer.
    this.deadlines.add(exchange);
    upstream.on('response', onUpstreamResponse);
    upstream.on('error', onUpstreamError);
    // Node closes the request without an 'error' after an answer it does not hand over (a 101
    // Switching Protocols nobody asked for): without this the client would wait for ever.
    upstream.on('close', onUpstreamClose);
    // Once it has the whole request, the upstream has timeoutMs to answer (it may answer before that).
    upstream.on('finish', onUpstreamFinish);
    // A client gone before the end takes the upstream request with it.
    res.on('close', onClientClose);

    (req as Tagged<IncomingMessage>)[EXCHANGE] = exchange;
    req.on('error', onClientError);
    if (req.headers['content-length'] === undefined && !chunked) {
      upstream.end();
      req.resume();
    } else {
      req.on('data', onClientData);
      req.pipe(upstream);
    }
  }
}

const EXCHANGE = Symbol('vela.gateway.exchange');
type Tagged<T> = T & { [EXCHANGE]?: Exchange };

/**
 * One proxied request in flight, and its upstream deadline. The event listeners are the module's
 * functions below, which find it on the emitter (`this`): a request makes this object and no closures
 * (each closure also costs an esbuild `__name` call when tsx runs the code).
 */
class Exchange implements Deadline {
  at: number;
  timedOut = false;
  clientGone = false;
  answered = false;
  failed = false;

  constructor(
    readonly proxy: GatewayProxy,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly route: ProxyRoute,
    readonly upstream: ClientRequest,
    readonly started: number,
  ) {
    this.at = Date.now() + route.timeoutMs;
  }

  onExpire(): void {
    this.timedOut = true;
    this.upstream.destroy(new Error('timeout'));
  }

  extend(): void {
    this.at = Date.now() + this.route.timeoutMs;
  }

  fail(cause: string): void {
    const { proxy, req, res, route } = this;
    proxy.deadlines.remove(this);
    if (this.failed || this.clientGone) return;
    this.failed = true;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const failure = this.timedOut ? proxyErrors.timeout(route.name, route.timeoutMs) : proxyErrors.unreachable(route.name, cause);
    proxy.recorder.record(route.slot, failure.status, (performance.now() - this.started) * 1000);
    proxy.logger.debug({ mapping: route.name, status: failure.status, cause }, 'upstream failed');
    // The client may still be sending a body the upstream will never read: answer and close.
    const unread = !req.readableEnded;
    if (unread) {
      req.unpipe(this.upstream);
      req.resume();
    }
    sendError(res, failure, unread);
  }
}

function onUpstreamResponse(this: Tagged<ClientRequest>, answer: IncomingMessage): void {
  const exchange = this[EXCHANGE]!;
  const { proxy, res, route } = exchange;
  exchange.answered = true;
  proxy.deadlines.remove(exchange);
  proxy.recorder.record(route.slot, answer.statusCode ?? 502, (performance.now() - exchange.started) * 1000);
  try {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, clientResponseHeaders(answer.rawHeaders));
  } catch (error) {
    // A header Node will not write (it parsed, but is not valid to send): the upstream's answer is unusable.
    answer.resume();
    sendError(res, proxyErrors.unreachable(route.name, (error as NodeJS.ErrnoException).code ?? 'invalid response header'));
    return;
  }
  (answer as Tagged<IncomingMessage>)[EXCHANGE] = exchange;
  answer.pipe(res);
  answer.on('error', onAnswerError);
}

function onAnswerError(this: Tagged<IncomingMessage>): void {
  this[EXCHANGE]!.res.destroy();
}

function onUpstreamError(this: Tagged<ClientRequest>, error: NodeJS.ErrnoException): void {
  this[EXCHANGE]!.fail(error.code ?? error.message);
}

function onUpstreamClose(this: Tagged<ClientRequest>): void {
  const exchange = this[EXCHANGE]!;
  if (!exchange.answered) exchange.fail('the upstream closed the connection without an answer');
}

function onUpstreamFinish(this: Tagged<ClientRequest>): void {
  const exchange = this[EXCHANGE]!;
  if (!exchange.answered) exchange.extend();
}

function onClientClose(this: Tagged<ServerResponse>): void {
  if (this.writableFinished) return;
  const exchange = this[EXCHANGE]!;
  exchange.clientGone = true;
  exchange.upstream.destroy();
}

function onClientData(this: Tagged<IncomingMessage>): void {
  this[EXCHANGE]!.extend();
}

function onClientError(this: Tagged<IncomingMessage>): void {
  this[EXCHANGE]!.upstream.destroy();
}
