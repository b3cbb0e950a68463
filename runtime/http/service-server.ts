import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AccessPolicy } from '../auth/access-policy.js';
import type { AdminAccess } from '../auth/admin-access.js';
import { wantsPage } from '../auth/browser-requests.js';
import type { ServiceConfig } from '../config/load-config.js';
import { bootErrors, excerpt, httpErrors } from '../errors.js';
import type { HealthCheckResult, RuntimeHooks } from '../hooks/runtime-hooks.js';
import type { Logger } from '../logger.js';
import { RUNTIME_VERSION } from '../paths.js';
import { RateLimitedLog } from '../rate-limited-log.js';
import { type ApiRouter, createApiRouter } from './api-router.js';
import { CorsPolicy } from './cors.js';
import { toErrorResponse } from './error-response.js';
import { mountFavicon } from './favicon.js';
import { sendJson } from './json-answer.js';
import { sendNotFoundPage } from './not-found-page.js';
import { OpenApiRegistry } from './openapi-registry.js';
import { SECURITY_HEADERS, setSecurityHeaders } from './security.js';
import { documentServiceRoutes } from './service-routes-spec.js';
import { mountSessionRoutes } from './session-routes.js';
import { mountSwaggerUi } from './swagger-ui.js';

/** Runs before express for every request of a service; returns true when it answered the request. */
export type Interceptor = (req: IncomingMessage, res: ServerResponse) => boolean;

let requestCounter = 0;

/** Request line plus headers: room for long search links (many fq[]), still bounded. */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Requests Node's parser refuses before any handler sees them (headers too large, malformed HTTP) get
 * the one JSON error shape too, instead of Node's bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way on this connection: an answer written now would land inside it.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message]: [number, string, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'headers_too_large',
          `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes; send long searches as a POST body`,
        ]
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? [413, 'payload_too_large', 'the chunk extensions of the request body are larger than 16384 bytes']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'the request was not received in time']
          : [400, 'bad_request', 'the request is not valid HTTP/1.1'];
  answerRaw(socket, status, code, message);
}

const CLOSE = { Connection: 'close' };

const RAW_SECURITY_HEADERS = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** An error answer written straight to a socket that no request handler owns. */
function answerRaw(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: code, message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${RAW_SECURITY_HEADERS}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * One HTTP service (gateway, search, connector): its own port, express app, OpenAPI document,
 * health endpoint and error shape. Plugins mount routers into it; interceptors see raw requests
 * first, for hot paths that must not pay for express routing.
 */
/** The URL a service listening on `host:port` is reached at from this machine (an any-address listener on loopback). */
export function reachableUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Listen, or reject with the boot error naming the service and the address. */
function bind(server: http.Server, service: string, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(
        error.code === 'EADDRINUSE'
          ? bootErrors.portInUse(service, host, port)
          : bootErrors.listen(service, port, error.message),
      );
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host });
  });
}

/** Whether a service could listen on `host:port` now: a listener opened and closed at once (port 0 always can). */
export async function checkCanListen(service: string, host: string, port: number): Promise<void> {
  const probe = http.createServer();
  await bind(probe, service, host, port);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

export class ServiceServer {
  readonly app = express();
  readonly openapi: OpenApiRegistry;
  /** Who may call which route: each route's declared access, checked against the keys plugins accept here. */
  readonly access: AccessPolicy;
  /** Which origins may call which routes from a browser, by each route's declared access. */
  readonly cors: CorsPolicy;
  private readonly interceptors: Array<{ name: string; fn: Interceptor }> = [];
  // Paths match exactly, letter case included: a plugin's own path checks (access lists, prefixes) then see the
  // same path its routes answer to, so `/API/...` cannot reach a route while passing such a check.
  private readonly pluginRouter = express.Router({ caseSensitive: true, strict: false });
  private readonly plugins: string[] = [];
  private server: http.Server | null = null;
  private stopping = false;
  private readonly startedAt = Date.now();
  /**
   * Refusals under load (ocr_busy, an LLM instance at its concurrency, 429s): info lines, at most 10 a minute per code.
   */
  private readonly refusals: RateLimitedLog;

  constructor(
    readonly name: string,
    private readonly config: ServiceConfig,
    private readonly hooks: RuntimeHooks,
    private readonly logger: Logger,
    adminAccess: () => AdminAccess,
  ) {
    this.refusals = new RateLimitedLog(logger);
    this.openapi = new OpenApiRegistry(name, RUNTIME_VERSION);
    documentServiceRoutes(this.openapi);
    this.access = new AccessPolicy(adminAccess);
    this.cors = new CorsPolicy(name, config.cors);
    this.configureApp();
    // Console sign-in is the runtime's, the same on every service.
    const session = this.router('runtime');
    mountSessionRoutes(session, adminAccess);
    this.mount(session.raw);
  }

  /** A router for a plugin's routes on this service (mount its `raw` with `mount`). */
  router(plugin: string): ApiRouter {
    return createApiRouter(this.openapi, this.access, this.cors, plugin, this.config.bodyLimit);
  }

  addPlugin(plugin: string): void {
    this.plugins.push(plugin);
  }

  mount(router: Router): void {
    this.pluginRouter.use(router);
  }

  intercept(name: string, fn: Interceptor): void {
    this.interceptors.push({ name, fn });
  }

  get pluginNames(): readonly string[] {
    return this.plugins;
  }

  /**
   * Every base URL the service is known by, never taken from a request's Host: the configured `publicUrl`,
   * else its listening address, spelled with each loopback name when it listens on loopback or everywhere.
   */
  publicUrls(): string[] {
    if (this.config.publicUrl) return [this.config.publicUrl.replace(/\/+$/, '')];
    const { host, port, url } = this.address();
    if (!['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(host)) return [url];
    return [url, `http://localhost:${port}`, `http://[::1]:${port}`];
  }

  /**
   * Where the service listens: once listening, the address really bound (a host name such as `localhost` resolved),
   * else the configured one. `listening` is that address and port (`127.0.0.1:2700`, `[::]:2700`), `url` where
   * this machine reaches it.
   */
  address(): { host: string; port: number; url: string; listening: string } {
    const addr = this.server?.address() as AddressInfo | null;
    const port = addr?.port ?? this.config.port;
    const host = addr?.address ?? this.config.host;
    return {
      host,
      port,
      url: reachableUrl(host, port),
      listening: `${host.includes(':') ? `[${host}]` : host}:${port}`,
    };
  }

  /**
   * Fail now, before the runtime creates anything, when the service could not listen (its port taken, its address
   * not this machine's): a listener opened and closed at once. A worker process skips it: its listeners are the
   * primary's shared ones.
   */
  checkCanListen(): Promise<void> {
    return checkCanListen(this.name, this.config.host, this.config.port);
  }

  async listen(): Promise<void> {
    // Node's own answer to an HTTP/1.1 request without Host is a bare 400: `handle` answers it instead.
    const options = { keepAliveTimeout: 5000, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false };
    const server = http.createServer(options, (req, res) => this.handle(req, res));
    server.on('clientError', answerClientError);
    // An Expect other than 100-continue: Node's own answer is a bare 417.
    server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
      sendJson(
        res,
        417,
        { error: 'expectation_failed', message: 'the only expectation this service meets is "Expect: 100-continue"' },
        CLOSE,
      ),
    );
    // Without a listener Node drops CONNECT tunnels without a word; no service here is a forward proxy.
    server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
      answerRaw(socket, 405, 'method_not_allowed', 'CONNECT is not supported: this service is not a forward proxy'),
    );
    await bind(server, this.name, this.config.host, this.config.port);
    this.server = server;
  }

  /**
   * Stop accepting connections, let in-flight requests finish (up to timeoutMs), then close the rest.
   * `drainKeepAlive` (a worker process leaving while others keep serving the port): idle keep-alive
   * connections are not cut at once, since a client may be sending its next request on one right now;
   * they end when idle for the keep-alive timeout (which clients are told, so they stop reusing them
   * first), and a request arriving on one is answered with `Connection: close`.
   */
  async close(timeoutMs: number, drainKeepAlive = false): Promise<void> {
    this.stopping = true;
    const server = this.server;
    if (!server) return;
    this.server = null;
    let closed: Promise<void>;
    if (drainKeepAlive) {
      // http.Server.close() closes idle connections itself (Node 19+): not this time.
      const closeIdle = server.closeIdleConnections;
      server.closeIdleConnections = () => undefined;
      closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections = closeIdle;
    } else closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A keep-alive connection turns idle when its in-flight response ends; close it then, not at the deadline.
    if (!drainKeepAlive) server.closeIdleConnections();
    const sweeper = setInterval(() => {
      if (!drainKeepAlive) server.closeIdleConnections();
    }, 25);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    clearInterval(sweeper);
    if (timedOut) {
      this.logger.warn(
        { service: this.name, timeoutMs },
        'requests still in flight at the shutdown deadline were cut off',
      );
      server.closeAllConnections();
      await closed;
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // During shutdown, finish this request but do not keep its connection open for another.
    if (this.stopping) res.shouldKeepAlive = false;
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      sendJson(res, 400, { error: 'bad_request', message: 'an HTTP/1.1 request needs a Host header' }, CLOSE);
      return;
    }
    const { httpRequest, httpResponse } = this.hooks;
    if (httpRequest.isUsed()) {
      const decision = httpRequest.call({ service: this.name, req, res });
      if (decision) {
        sendJson(res, decision.status, { error: decision.error, message: decision.message }, decision.headers);
        return;
      }
    }
    if (httpResponse.isUsed() || this.logger.isLevelEnabled('debug')) this.observe(req, res);
    for (const interceptor of this.interceptors) {
      if (interceptor.fn(req, res)) return;
    }
    this.app(req as Request, res as Response, (error?: unknown) => this.unrouted(req, res, error));
  }

  /**
   * What express's router gives up on before any route or handler of ours (a request target it cannot read as a
   * URL, `http://[::1`): the error shape, not express's HTML page without the security headers.
   */
  private unrouted(req: IncomingMessage, res: ServerResponse, error?: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error) {
      const { status, body, headers } = toErrorResponse(error);
      sendJson(res, status, body, headers);
      return;
    }
    sendJson(res, 400, {
      error: 'bad_request',
      message: `the request target ${JSON.stringify(excerpt(req.url ?? '', 200))} is not a path or URL`,
    });
  }

  private observe(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? `${this.name}-${++requestCounter}`;
    res.once('finish', () => {
      const r = req as Request;
      const path = (req.url ?? '/').split('?')[0]!;
      const event = {
        service: this.name,
        method: req.method ?? 'GET',
        route: r.route?.path ? `${r.baseUrl ?? ''}${String(r.route.path)}` : path,
        path,
        status: res.statusCode,
        durationMs: performance.now() - started,
        requestId,
      };
      // Request logs are debug level: per-request detail, off the default path.
      this.logger.debug(
        {
          reqId: requestId,
          method: event.method,
          path,
          status: event.status,
          ms: Math.round(event.durationMs * 10) / 10,
        },
        'request',
      );
      if (this.hooks.httpResponse.isUsed()) this.hooks.httpResponse.call(event);
    });
  }

  private configureApp(): void {
    const app = this.app;
    app.disable('x-powered-by');
    app.set('case sensitive routing', true);
    app.set('trust proxy', this.config.trustProxy);
    // Before routing, so every answer has them (pages replace the CSP with their own).
    app.use((_req: Request, res: Response, next: NextFunction) => {
      setSecurityHeaders(res);
      next();
    });
    // Bodies are parsed per route (ApiRouter), with the route's own limit: an import route can take
    // megabytes while the rest keep the service's limit, and a streaming route parses nothing.
    app.get('/health', this.cors.route('GET', '/health', 'public'), (_req, res, next) =>
      this.health().then(({ status, body }) => res.status(status).json(body), next),
    );
    app.get('/v3/api-docs', this.cors.route('GET', '/v3/api-docs', 'public'), (_req, res) =>
      res.json(this.openapi.document()),
    );
    mountSwaggerUi(app, this.name);
    app.use(this.cors.answerPreflights);
    app.use(this.pluginRouter);
    // After the plugins' routes: a plugin may serve its own icon.
    mountFavicon(app);
    app.use((req: Request, res: Response, next: NextFunction) => {
      // A browser's navigation gets a page; API clients (JSON or */* ranked first) the JSON error.
      if (wantsPage(req)) return sendNotFoundPage(req, res, this.name);
      next(httpErrors.notFound(`no route for ${req.method} ${req.path} on the ${this.name} service`));
    });
    app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
      const { status, body, internal, busy, headers } = toErrorResponse(error);
      if (internal)
        this.logger.error({ err: error, method: req.method, path: excerpt(req.path, 500) }, 'request failed');
      else if (busy)
        this.refusals.info(
          body.error,
          { status, error: body.error, method: req.method, path: excerpt(req.path, 500) },
          'request refused under load',
        );
      else
        this.logger.debug(
          { status, error: body.error, method: req.method, path: excerpt(req.path, 500) },
          'request refused',
        );
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (headers) res.set(headers);
      res.status(status).json(body);
    });
  }

  private async health(): Promise<{ status: number; body: unknown }> {
    const results: HealthCheckResult[] = [];
    await this.hooks.health.promise({ service: this.name, add: (r) => results.push(r) });
    const plugins: Record<string, { status: 'UP' | 'DOWN'; checks: HealthCheckResult[] }> = {};
    for (const name of this.plugins) plugins[name] = { status: 'UP', checks: [] };
    for (const result of results) {
      plugins[result.plugin] ??= { status: 'UP', checks: [] };
      const entry = plugins[result.plugin]!;
      entry.checks.push(result);
      if (result.status === 'DOWN') entry.status = 'DOWN';
    }
    const up = Object.values(plugins).every((p) => p.status === 'UP');
    return {
      status: up ? 200 : 503,
      body: {
        status: up ? 'UP' : 'DOWN',
        service: this.name,
        version: RUNTIME_VERSION,
        uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
        plugins,
      },
    };
  }
}
