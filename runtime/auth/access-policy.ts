import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { httpErrors, VelaError } from '../errors.js';
import { readCookie, SESSION_COOKIE } from './accounts.js';
import type { AdminAccess } from './admin-access.js';
import { challengeBasic, wantsPage } from './browser-requests.js';

/**
 * Who may call a route, declared in its route spec: anyone; an API key (the Key header, or an
 * `Authorization: Bearer` header, as checked by the key verifiers plugins register on the service) or the
 * administrator; the administrator only
 * (Basic credentials, or a console session whose writes carry its CSRF token).
 */
export type RouteAccess = 'public' | 'key' | 'admin';

/** Who is calling. */
export interface Principal {
  username: string;
  via: 'key' | 'basic' | 'session';
  /** The API token behind a Key header, when the verifier knows one. */
  tokenId?: string;
  /** The console session's CSRF token. */
  csrfToken?: string;
  /**
   * What an API key may do (`key` routes name the scope they need; `admin` covers all). Undefined for the
   * administrator, who may do everything.
   */
  scopes?: readonly string[];
}

/** The scope that covers every other one. */
export const ADMIN_SCOPE = 'admin';

/**
 * Checks the value of a Key header (or of a Bearer one): the principal it stands for, or null when it is no key this
 * verifier knows.
 */
export type KeyVerifier = (key: string) => Principal | null | Promise<Principal | null>;

/** The principal the access guard found for this request (public routes too, when credentials were sent). */
export function principalOf(res: Response): Principal | null {
  return (res.locals.principal as Principal | null | undefined) ?? null;
}

function sentCredentials(req: IncomingMessage): boolean {
  return (
    !!req.headers.key || !!req.headers.authorization || readCookie(req.headers.cookie, SESSION_COOKIE) !== undefined
  );
}

const BEARER = /^bearer +(\S+) *$/i;

/**
 * One service's access policy, enforced by the runtime on every route by the access its spec declares.
 * Key headers go to the verifiers that plugins mounted on the service register (in registration
 * order, the first that knows the key wins); everything else to the runtime's administrator access.
 * On a service that takes keys, `Authorization: Bearer <token>` is read as `Key: <token>`: the original's
 * SDK sends its API token that way. Where no plugin takes keys a Bearer value is no key of this service (the
 * gateway's OAuth tokens, which its proxy reads before any route), so it is left to the administrator access.
 */
export class AccessPolicy {
  private readonly verifiers: Array<{ plugin: string; verify: KeyVerifier }> = [];
  /** The service's sign-in page (a console mounts one), where a browser asking for a page is sent. */
  private signInPage: string | null = null;

  /** `admin` is a getter: the administrator's accounts live in the database, opened on first use. */
  constructor(private readonly admin: () => AdminAccess) {}

  acceptKeys(plugin: string, verify: KeyVerifier): void {
    this.verifiers.push({ plugin, verify });
  }

  /** Send browsers that ask for a page without being signed in to this sign-in page (`?next=` added). */
  useSignInPage(path: string): void {
    this.signInPage = path;
  }

  get acceptsKeys(): boolean {
    return this.verifiers.length > 0;
  }

  async authenticate(req: IncomingMessage): Promise<Principal | null> {
    const key = this.apiKeyOf(req);
    if (key) {
      for (const { verify } of this.verifiers) {
        const principal = await verify(key);
        if (principal) return principal;
      }
      return null;
    }
    return this.admin().authenticate(req);
  }

  /** The API key a request carries: its Key header, else (on a service that takes keys) its Bearer token. */
  private apiKeyOf(req: IncomingMessage): string | undefined {
    const key = req.headers.key;
    if (typeof key === 'string' && key) return key;
    if (!this.acceptsKeys || !req.headers.authorization) return undefined;
    return BEARER.exec(req.headers.authorization)?.[1];
  }

  /** Express middleware enforcing `access` for one route; an API key also needs `scope` (default: admin). */
  guard(access: RouteAccess, scope = ADMIN_SCOPE): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      if (access === 'public' && !sentCredentials(req)) return next();
      this.authenticate(req).then((principal) => {
        res.locals.principal = principal;
        if (!principal && access !== 'public' && this.signInPage && wantsPage(req))
          return res.redirect(302, this.signInLocation(req));
        next(access === 'public' ? undefined : this.refusal(access, scope, principal, req, res));
      }, next);
    };
  }

  private refusal(
    access: Exclude<RouteAccess, 'public'>,
    scope: string,
    principal: Principal | null,
    req: Request,
    res: Response,
  ): Error | undefined {
    if (!principal) {
      challengeBasic(req, res);
      return httpErrors.unauthorized(this.reason(access, req));
    }
    if (access === 'admin' && principal.via === 'key')
      return httpErrors.forbidden(
        'this endpoint is for the administrator only (Basic credentials or a console session), not for API keys',
      );
    if (principal.scopes && !principal.scopes.includes(ADMIN_SCOPE) && !principal.scopes.includes(scope)) {
      return new VelaError(
        'insufficient_scope',
        `this endpoint needs an API token with the scope "${scope}"; this one has ${principal.scopes.map((s) => `"${s}"`).join(', ') || 'none'}`,
        403,
      );
    }
    if (this.admin().csrfMissing(principal, req)) return httpErrors.csrf();
    return undefined;
  }

  /** Back to the page after signing in when it is a console page; the sign-in page keeps only those. */
  private signInLocation(req: Request): string {
    return `${this.signInPage}?next=${encodeURIComponent(req.originalUrl)}`;
  }

  private reason(access: Exclude<RouteAccess, 'public'>, req: IncomingMessage): string {
    if (req.headers.key) return 'the Key header does not match any API token';
    if (req.headers.authorization) return 'the credentials in the Authorization header are not valid';
    if (access === 'admin' || !this.acceptsKeys)
      return "this endpoint needs the administrator's Basic credentials or a console session";
    return "this endpoint needs an API token in the Key header or as Authorization: Bearer (or the administrator's Basic credentials)";
  }
}
