import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { readCookie, SESSION_COOKIE, type Accounts } from '../../../runtime/index.js';
import { searchErrors } from '../errors.js';
import type { ApiTokens } from './api-tokens.js';
import { isPublic } from './public-routes.js';

export interface Principal {
  username: string;
  via: 'key' | 'basic' | 'session';
  tokenId?: string;
  csrfToken?: string;
}

const BASIC_CACHE_MS = 60_000;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Who is calling: an API token in the Key header, the administrator's Basic credentials, or a
 * console session cookie (whose writes must carry its CSRF token). Shared with other plugins as
 * the `search.access` service so the connector accepts the same keys.
 */
export class AccessControl {
  // Basic credentials cost an scrypt each; a verified header is remembered (by hash) for a minute.
  private readonly basicCache = new Map<string, { username: string; until: number }>();

  constructor(private readonly tokens: ApiTokens, private readonly accounts: Accounts) {}

  async authenticate(req: IncomingMessage): Promise<Principal | null> {
    const key = req.headers.key;
    if (typeof key === 'string' && key) {
      const token = this.tokens.verify(key);
      return token ? { username: token.createdBy, via: 'key', tokenId: token.id } : null;
    }
    const authorization = req.headers.authorization;
    if (authorization && /^basic /i.test(authorization)) return this.basic(authorization);
    const session = await this.accounts.findSession(readCookie(req.headers.cookie, SESSION_COOKIE));
    if (session) return { username: session.username, via: 'session', csrfToken: session.csrfToken };
    return null;
  }

  /** Express middleware: public routes pass (with the principal when one is given); others need one. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      this.authenticate(req).then((principal) => {
        res.locals.principal = principal;
        if (isPublic(req.method, req.path)) return next();
        if (!principal) {
          res.setHeader('WWW-Authenticate', 'Basic realm="Vela", charset="UTF-8"');
          return next(searchErrors.unauthorized(this.reason(req)));
        }
        if (principal.via === 'session' && UNSAFE.has(req.method) && req.headers['x-csrf-token'] !== principal.csrfToken) {
          return next(searchErrors.csrf());
        }
        next();
      }, next);
    };
  }

  private reason(req: IncomingMessage): string {
    if (req.headers.key) return 'the Key header does not match any API token';
    if (req.headers.authorization) return 'the credentials in the Authorization header are not valid';
    return 'this endpoint needs the Key header with an API token (or the administrator\'s Basic credentials)';
  }

  private async basic(header: string): Promise<Principal | null> {
    const cacheKey = createHash('sha256').update(header).digest('hex');
    const cached = this.basicCache.get(cacheKey);
    if (cached && cached.until > Date.now()) return { username: cached.username, via: 'basic' };
    const account = await this.accounts.authenticateBasic(header);
    if (!account) return null;
    if (this.basicCache.size > 1000) this.basicCache.clear();
    this.basicCache.set(cacheKey, { username: account.username, until: Date.now() + BASIC_CACHE_MS });
    return { username: account.username, via: 'basic' };
  }
}

export function principalOf(res: Response): Principal | null {
  return (res.locals.principal as Principal | null | undefined) ?? null;
}
