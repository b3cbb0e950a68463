import type { IncomingMessage } from 'node:http';
import { type Accounts, readCookie, SESSION_COOKIE } from './accounts.js';
import { BoundedMap } from './bounded-map.js';
import { sameSecret, sha256Hex } from './secret-digest.js';

/** The administrator behind a request: Basic credentials, or a console session and its CSRF token. */
export interface AdminPrincipal {
  username: string;
  via: 'basic' | 'session';
  csrfToken?: string;
}

const BASIC_CACHE_MS = 60_000;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Who of the runtime's administrators is calling, shared by every plugin's admin API and console:
 * HTTP Basic (an scrypt per check, so a verified header is remembered by its hash for a minute) or
 * the session cookie from sign-in, whose writes must carry the session's CSRF token.
 */
export class AdminAccess {
  private readonly basicCache = new BoundedMap<string, { username: string; until: number }>(1000);

  constructor(readonly accounts: Accounts) {}

  async authenticate(req: IncomingMessage): Promise<AdminPrincipal | null> {
    const authorization = req.headers.authorization;
    if (authorization && /^basic /i.test(authorization)) return this.basic(authorization, clientAddress(req));
    const session = await this.accounts.findSession(readCookie(req.headers.cookie, SESSION_COOKIE));
    if (session) return { username: session.username, via: 'session', csrfToken: session.csrfToken };
    return null;
  }

  /** A write made with the session cookie must echo the session's CSRF token in X-CSRF-Token. */
  csrfMissing(principal: { via: string; csrfToken?: string }, req: IncomingMessage): boolean {
    if (principal.via !== 'session' || !UNSAFE.has(req.method ?? 'GET')) return false;
    const sent = req.headers['x-csrf-token'];
    return typeof sent !== 'string' || !principal.csrfToken || !sameSecret(sent, principal.csrfToken);
  }

  private async basic(header: string, address: string | undefined): Promise<AdminPrincipal | null> {
    const cacheKey = sha256Hex(header);
    const cached = this.basicCache.get(cacheKey);
    if (cached && cached.until > Date.now()) return { username: cached.username, via: 'basic' };
    const account = await this.accounts.authenticateBasic(header, address);
    if (!account) return null;
    this.basicCache.set(cacheKey, { username: account.username, until: Date.now() + BASIC_CACHE_MS });
    return { username: account.username, via: 'basic' };
  }
}

/** The caller's address as the limits see it: express's `req.ip` (which honours trustProxy), else the socket's. */
export function clientAddress(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { ip?: string }).ip ?? req.socket.remoteAddress;
}
