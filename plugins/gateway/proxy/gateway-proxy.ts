import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { type Logger, sendJson } from 'vela/plugin';
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
const UNAUTHORIZED_BAD_TOKEN = {
  'WWW-Authenticate': 'Bearer realm="vela-gateway", error="invalid_token"',
  'Content-Length': '0',
};

function sendError(
  res: ServerResponse,
  failure: { status: number; error: string; message: string; retryAfter?: number },
  close = false,
): void {
  // The gateway's own answers carry the headers express would have added; upstream answers stay the upstream's.
  sendJson(
    res,
    failure.status,
    { error: failure.error, message: failure.message },
    {
      ...(failure.retryAfter ? { 'Retry-After': String(failure.retryAfter) } : {}),
      ...(close ? { Connection: 'close' } : {}),
    },
  );
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
    /** The largest request line and headers forwarded (`plugins.gateway.proxy.maxForwardedHeadBytes`). */
    private readonly maxHeadBytes: number,
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

  private route(
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    path: string,
    slash: number,
    url: string,
    q: number,
    routes: ProxyRoute[],
  ): void {
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
    this.forward(
      req,
      res,
      matched.route,
      upstreamPath(matched.route, matched.remainder, q < 0 ? '' : url.slice(q + 1)),
    );
  }

  private forward(req: IncomingMessage, res: ServerResponse, route: ProxyRoute, path: string): void {
    const method = req.method ?? 'GET';
    const headers = upstreamRequestHeaders(req, route.hostHeader);
    // An upstream with a smaller limit (Node's is 16 KiB) would refuse the head with a bare 431 the client
    // cannot tell from an answer of the API: refused here, in the error shape, before anything is sent.
    const headBytes = forwardedHeadBytes(method, path, headers);
    if (headBytes > this.maxHeadBytes) {
      const unread = !req.readableEnded;
      if (unread) req.resume();
      sendError(res, proxyErrors.headTooLarge(route.name, headBytes, this.maxHeadBytes), unread);
      return;
    }
    // A body is handed to undici through a stream of its own: undici destroys the body it was given when
    // it aborts, and the client's request must outlive that, to be answered 504 or 502 on the same socket.
    const body =
      req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
        ? null
        : new PassThrough();
    const exchange = new Exchange(this, req, res, route, body, performance.now());
    (res as Tagged<ServerResponse>)[EXCHANGE] = exchange;
    (req as Tagged<IncomingMessage>)[EXCHANGE] = exchange;
    // One deadline from the start: until the upstream has the whole request it measures progress (a
    // connection that never opens, an upstream that stops reading the body), then the time to answer.
    this.deadlines.add(exchange);
    // A client gone before the end takes the upstream request with it.
    res.on('close', onClientClose);
    req.on('error', onClientError);
    if (body) req.pipe(body);
    else req.resume();
    // Errors, a 101 nobody asked for among them ("bad upgrade"), come back through exchange.onError.
    route.pool.dispatch({ path, method: method as Dispatcher.HttpMethod, headers, body }, exchange);
  }
}

/** The request line and headers as sent upstream, in bytes (Node keeps header values as latin1: a character a byte). */
function forwardedHeadBytes(method: string, path: string, headers: string[]): number {
  let bytes = method.length + path.length + 12; // ` HTTP/1.1\r\n`, a space
  for (let i = 0; i < headers.length; i += 2) bytes += headers[i]!.length + headers[i + 1]!.length + 4; // `: `, CRLF
  return bytes + 2;
}

const EXCHANGE = Symbol('vela.gateway.exchange');
type Tagged<T> = T & { [EXCHANGE]?: Exchange };
const TIMEOUT = new Error('timeout');
const CLIENT_GONE = new Error('the client went away');

/**
 * One proxied request in flight: its upstream deadline, and undici's handler of the upstream exchange.
 * A request makes this object and no closures (each closure also costs an esbuild `__name` call when
 * tsx runs the code); the few event listeners are the module's functions below, which find it on the
 * emitter (`this`).
 */
class Exchange implements Deadline, Dispatcher.DispatchHandlers {
  at: number;
  deadlineSlot = -1;
  timedOut = false;
  clientGone = false;
  answered = false;
  failed = false;
  draining = false;
  /** undici's abort of the upstream request, once it is on a connection; until then a request is only queued. */
  private abortUpstream: ((error?: Error) => void) | null = null;
  resumeUpstream: (() => void) | null = null;

  constructor(
    readonly proxy: GatewayProxy,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly route: ProxyRoute,
    readonly body: PassThrough | null,
    readonly started: number,
  ) {
    this.at = Date.now() + route.timeoutMs;
  }

  onExpire(): void {
    this.timedOut = true;
    // Still queued or connecting: answered now, and aborted as soon as undici hands it a connection.
    if (this.abortUpstream) this.abortUpstream(TIMEOUT);
    else this.fail('timeout');
  }

  extend(): void {
    this.at = Date.now() + this.route.timeoutMs;
  }

  /** The upstream request gets cut off (the client went away, or sent a broken body). */
  cancel(): void {
    this.clientGone = true;
    this.abortUpstream?.(CLIENT_GONE);
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
    const failure = this.timedOut
      ? proxyErrors.timeout(route.name, route.timeoutMs)
      : proxyErrors.unreachable(route.name, cause);
    proxy.recorder.record(route.slot, failure.status, (performance.now() - this.started) * 1000);
    proxy.logger.debug({ mapping: route.name, status: failure.status, cause }, 'upstream failed');
    // The client may still be sending a body the upstream will never read: answer and close.
    const unread = !req.readableEnded;
    if (unread) {
      if (this.body) req.unpipe(this.body);
      req.resume();
    }
    sendError(res, failure, unread);
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.failed || this.clientGone) abort(this.timedOut ? TIMEOUT : CLIENT_GONE);
    else this.abortUpstream = abort;
  }

  // Progress on the upload, then the whole request sent: from then on the upstream has timeoutMs to answer.
  onBodySent(): void {
    if (!this.answered) this.extend();
  }

  onRequestSent(): void {
    if (!this.answered) this.extend();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // An informational answer (103 Early Hints): the real one follows.
    if (statusCode < 200) return true;
    const { proxy, res, route } = this;
    this.answered = true;
    proxy.deadlines.remove(this);
    proxy.recorder.record(route.slot, statusCode, (performance.now() - this.started) * 1000);
    try {
      res.writeHead(statusCode, statusText, clientResponseHeaders(rawHeaders));
    } catch (error) {
      // A header Node will not write (it parsed, but is not valid to send): the upstream's answer is
      // unusable. Its body is read and dropped, which keeps the connection usable.
      this.failed = true;
      sendError(
        res,
        proxyErrors.unreachable(route.name, (error as NodeJS.ErrnoException).code ?? 'invalid response header'),
      );
      return true;
    }
    this.resumeUpstream = resume;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.failed) return true;
    if (this.res.write(chunk)) return true;
    // The client reads slower than the upstream sends: undici pauses the connection until the drain.
    if (!this.draining) {
      this.draining = true;
      this.res.on('drain', onClientDrain);
    }
    return false;
  }

  onComplete(): void {
    if (this.failed) return;
    this.res.end();
    const { req, body } = this;
    // The upstream answered without reading the whole body: the rest is the client's to send and ours to drop.
    if (body && !req.readableEnded) {
      req.unpipe(body);
      req.resume();
    }
  }

  onError(error: Error): void {
    this.fail((error as NodeJS.ErrnoException).code ?? error.message);
  }
}

function onClientDrain(this: Tagged<ServerResponse>): void {
  this[EXCHANGE]!.resumeUpstream?.();
}

function onClientClose(this: Tagged<ServerResponse>): void {
  if (this.writableFinished) return;
  this[EXCHANGE]!.cancel();
}

function onClientError(this: Tagged<IncomingMessage>): void {
  this[EXCHANGE]!.cancel();
}
