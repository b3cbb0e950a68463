import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { RouteAccess } from '../auth/access-policy.js';
import type { CorsConfig } from '../config/load-config.js';
import { httpErrors } from '../errors.js';

/** What an origin may do on a route: read answers with `allowOrigin`, and send credentials or not. */
interface Grant {
  allowOrigin: string;
  credentials: boolean;
}

/**
 * One service's CORS, decided per route by the access it declares. Public routes answer the origins of
 * `cors.origins` (any with `*`), without credentials. Key and admin routes answer only the origins of
 * `cors.credentialedOrigins`, which are trusted on every route with credentials (cookies, Basic): a
 * browser on another origin, or on another port of the same host, gets nothing from them by default.
 */
export class CorsPolicy {
  private readonly anyPublic: boolean;
  private readonly publicOrigins: Set<string>;
  private readonly trusted: Set<string>;
  private readonly methods: Set<string>;
  private readonly allowHeaders: string;
  private readonly maxAge: string;
  /** Whether an answer depends on the Origin, so that caches must keep answers to each origin apart. */
  private readonly varies: boolean;
  /** Every route's preflight, in the order the routes were added (as the service's routers match them). */
  private readonly preflights = express.Router({ caseSensitive: true });

  constructor(
    private readonly service: string,
    config: CorsConfig,
  ) {
    this.anyPublic = config.origins.includes('*');
    this.publicOrigins = new Set(config.origins);
    this.trusted = new Set(config.credentialedOrigins);
    this.methods = new Set(config.methods.map((m) => m.toUpperCase()));
    this.allowHeaders = config.headers.join(', ');
    this.maxAge = String(config.maxAgeSeconds);
    this.varies = this.trusted.size > 0 || (!this.anyPublic && this.publicOrigins.size > 0);
  }

  private grant(access: RouteAccess, origin: string): Grant | null {
    if (this.trusted.has(origin)) return { allowOrigin: origin, credentials: true };
    if (access !== 'public') return null;
    if (this.anyPublic) return { allowOrigin: '*', credentials: false };
    return this.publicOrigins.has(origin) ? { allowOrigin: origin, credentials: false } : null;
  }

  private allow(res: Response, grant: Grant | null): void {
    if (this.varies) res.vary('Origin');
    if (!grant) return;
    res.setHeader('Access-Control-Allow-Origin', grant.allowOrigin);
    if (grant.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
  }

  /**
   * CORS for one route (`method` upper case): its preflight is answered from now on, and the middleware
   * returned goes in front of its handlers.
   */
  route(method: string, path: string, access: RouteAccess): RequestHandler {
    this.preflights.options(path, this.preflight(method, access));
    return this.forRoute(access);
  }

  /**
   * The service's middleware for preflights, before its routes: a preflight is answered for the route
   * that will take the request it announces, by that route's access. Other requests pay one check.
   */
  readonly answerPreflights: RequestHandler = (req, res, next) =>
    isPreflight(req) ? this.preflights(req, res, next) : next();

  /** Middleware for the requests of a route: the allow headers when the caller's origin may read the answer. */
  forRoute(access: RouteAccess): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const origin = req.headers.origin;
      this.allow(res, origin ? this.grant(access, origin) : null);
      next();
    };
  }

  /**
   * The preflight answer for a route (`method` upper case): 204 with what the browser may send when the
   * origin may call it, 403 otherwise. It answers for the one method asked, so a preflight cached for a
   * public route never stands for an admin route on the same path.
   */
  private preflight(method: string, access: RouteAccess): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const asked = req.headers['access-control-request-method'];
      if (asked !== method && !(method === 'GET' && asked === 'HEAD')) return next();
      const grant = this.methods.has(asked) ? this.grant(access, req.headers.origin!) : null;
      this.allow(res, grant);
      if (!grant) {
        const list = access === 'public' ? 'origins or credentialedOrigins' : 'credentialedOrigins';
        return next(
          httpErrors.forbidden(
            `this origin may not send ${asked} to this route from a browser (services.${this.service}.cors.${list})`,
          ),
        );
      }
      res.setHeader('Access-Control-Allow-Methods', asked);
      res.setHeader('Access-Control-Allow-Headers', this.allowHeaders);
      res.setHeader('Access-Control-Max-Age', this.maxAge);
      res.status(204).end();
    };
  }
}

/** A CORS preflight: an OPTIONS request from a browser asking whether it may send another method. */
function isPreflight(req: Request): boolean {
  return (
    req.method === 'OPTIONS' &&
    typeof req.headers.origin === 'string' &&
    typeof req.headers['access-control-request-method'] === 'string'
  );
}
