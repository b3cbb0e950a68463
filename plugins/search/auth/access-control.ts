import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { AdminAccess, type Accounts } from '../../../runtime/index.js';
import { searchErrors } from '../errors.js';
import type { ApiTokens } from './api-tokens.js';
import { isPublic } from './public-routes.js';

export interface Principal {
  username: string;
  via: 'key' | 'basic' | 'session';
  tokenId?: string;
  csrfToken?: string;
}

/**
 * Who is calling: an API token in the Key header, the administrator's Basic credentials, or a
 * console session cookie (whose writes must carry its CSRF token). Shared with other plugins as
 * the `search.access` service so the connector accepts the same keys.
 */
export class AccessControl {
  // The administrator's Basic credentials and console sessions: the runtime's, shared with other plugins.
  private readonly admin: AdminAccess;

  constructor(private readonly tokens: ApiTokens, accounts: Accounts) {
    this.admin = new AdminAccess(accounts);
  }

  async authenticate(req: IncomingMessage): Promise<Principal | null> {
    const key = req.headers.key;
    if (typeof key === 'string' && key) {
      const token = this.tokens.verify(key);
      return token ? { username: token.createdBy, via: 'key', tokenId: token.id } : null;
    }
    return this.admin.authenticate(req);
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
        if (this.admin.csrfMissing(principal, req)) return next(searchErrors.csrf());
        next();
      }, next);
    };
  }

  private reason(req: IncomingMessage): string {
    if (req.headers.key) return 'the Key header does not match any API token';
    if (req.headers.authorization) return 'the credentials in the Authorization header are not valid';
    return 'this endpoint needs the Key header with an API token (or the administrator\'s Basic credentials)';
  }
}

export function principalOf(res: Response): Principal | null {
  return (res.locals.principal as Principal | null | undefined) ?? null;
}
