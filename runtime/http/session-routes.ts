import { readCookie, SESSION_COOKIE } from '../auth/accounts.js';
import type { AdminAccess, AdminPrincipal } from '../auth/admin-access.js';
import { challengeBasic } from '../auth/browser-requests.js';
import { httpErrors } from '../errors.js';
import type { ApiRouter } from './api-router.js';

const tags = ['console'];
const sessionSchema = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    csrfToken: { type: 'string', description: 'send as X-CSRF-Token on writes made with the session cookie' },
    expiresAt: { type: 'string' },
  },
};

/** Set-Cookie value of the runtime's session cookie, shared by every service's console. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/**
 * Console sign-in for a service: `GET /api/login` with the administrator's Basic credentials opens
 * a session (cookie + CSRF token); with the cookie alone it answers who is signed in.
 * `POST /api/logout` ends it. The runtime mounts the two on every service, before any plugin's routes.
 */
export function mountSessionRoutes(router: ApiRouter, adminAccess: () => AdminAccess): void {
  router.get(
    '/api/login',
    {
      access: 'public',
      tags,
      summary: 'Sign in the administrator with Basic credentials: answers the user and sets the console session cookie',
      description: 'With a valid session cookie and no credentials, answers the signed-in user.',
      responses: { 200: { description: 'the session', schema: sessionSchema } },
    },
    async (req, res) => {
      const access = adminAccess();
      const { accounts } = access;
      // The route's guard checked the credentials already: a second check would count (and log) one failure twice.
      const principal = (
        res.locals.principal !== undefined ? res.locals.principal : await access.authenticate(req)
      ) as AdminPrincipal | null;
      if (principal?.via === 'session') {
        const session = await accounts.findSession(readCookie(req.headers.cookie, SESSION_COOKIE));
        return res.json({
          username: principal.username,
          csrfToken: principal.csrfToken,
          expiresAt: session?.expiresAt,
        });
      }
      const account = principal?.via === 'basic' ? await accounts.find(principal.username) : null;
      if (!account) {
        challengeBasic(req, res);
        throw httpErrors.unauthorized("sign in with the administrator's user name and password (HTTP Basic)");
      }
      const session = await accounts.createSession(account);
      res.setHeader(
        'Set-Cookie',
        sessionCookie(session.token, Math.round((Date.parse(session.expiresAt) - Date.now()) / 1000), req.secure),
      );
      res.json({ username: session.username, csrfToken: session.csrfToken, expiresAt: session.expiresAt });
    },
  );

  router.post(
    '/api/logout',
    {
      access: 'key',
      tags,
      summary: 'End the console session',
      responses: {
        200: {
          description: 'the session cookie is cleared',
          schema: { type: 'object', required: ['signedOut'], properties: { signedOut: { type: 'boolean' } } },
        },
      },
    },
    async (req, res) => {
      const { accounts } = adminAccess();
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (token) await accounts.deleteSession(token);
      res.setHeader('Set-Cookie', sessionCookie('', 0, req.secure));
      res.json({ signedOut: true });
    },
  );
}
