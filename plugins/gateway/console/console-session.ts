import type { Request } from 'express';
import { readCookie, SESSION_COOKIE, type Accounts } from '../../../runtime/index.js';

/** What the console needs from the gateway plugin: the runtime's administrator accounts and sessions. */
export interface ConsoleDeps {
  accounts: Accounts;
}

/** The signed-in administrator of a console request, with the CSRF token its forms and API writes carry. */
export interface ConsoleUser {
  username: string;
  csrfToken: string;
}

export const HOME = '/console/dashboard';
export const SIGN_IN = '/console/login';

export async function consoleUser(req: Request, accounts: Accounts): Promise<ConsoleUser | null> {
  const session = await accounts.findSession(readCookie(req.headers.cookie, SESSION_COOKIE));
  return session ? { username: session.username, csrfToken: session.csrfToken } : null;
}

/**
 * Where to go after signing in: only a console path on this service, so the sign-in form can never
 * be turned into an open redirect (`//evil.example`, `/\evil.example`, `https://...`, `/console/../x` all fall back home).
 */
export function safeNext(value: unknown): string {
  // Dot segments (plain or percent-encoded) would climb out of /console/ once the browser resolves them.
  if (typeof value !== 'string' || !value.startsWith('/console/') || /[\\\s]|\.\.|%2e/i.test(value)) return HOME;
  return value.startsWith(SIGN_IN) ? HOME : value;
}

/** The sign-in page that brings the browser back to this request's page afterwards. */
export function signInLocation(req: Request): string {
  return `${SIGN_IN}?next=${encodeURIComponent(safeNext(req.originalUrl))}`;
}

