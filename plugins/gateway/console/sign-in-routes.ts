import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { readCookie, sameSecret, sessionCookie, SESSION_COOKIE, type ApiRouter, type VelaError } from '../../../runtime/index.js';
import { consoleErrors } from './console-errors.js';
import { consoleUser, safeNext, SIGN_IN, type ConsoleDeps } from './console-session.js';
import { sendPage } from './render-page.js';
import { SignInThrottle, throttleKey } from './sign-in-throttle.js';

// Login CSRF (double submit): the sign-in page sets this cookie and puts the same value in its form,
// so another site cannot sign a browser in to an account of its choosing.
const SIGN_IN_COOKIE = 'vela_console_signin';
const hidden = { hidden: true, validate: false } as const;

interface SignInForm {
  username?: unknown;
  password?: unknown;
  csrf?: unknown;
  next?: unknown;
}

const wantsJson = (req: Request) => req.accepts(['html', 'json']) === 'json';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function signInPage(res: Response, status: number, options: { next: string; username?: string; message?: string }): void {
  const token = randomBytes(24).toString('base64url');
  res.append('Set-Cookie', `${SIGN_IN_COOKIE}=${token}; Path=${SIGN_IN}; HttpOnly; SameSite=Strict; Max-Age=3600${res.req.secure ? '; Secure' : ''}`);
  sendPage(res, status, {
    title: 'Sign in',
    user: null,
    template: 'login.html',
    values: { csrf: token, next: options.next, username: options.username ?? '', message: options.message ?? '', messageHidden: options.message ? '' : 'hidden' },
  });
}

export function mountSignInRoutes(router: ApiRouter, { accounts }: ConsoleDeps, throttle = new SignInThrottle()): void {
  router.get(SIGN_IN, { ...hidden, summary: 'Console sign-in page' }, async (req, res) => {
    const next = safeNext(req.query.next);
    if (await consoleUser(req, accounts)) return res.redirect(303, next);
    signInPage(res, 200, { next });
  });

  router.post(SIGN_IN, { ...hidden, summary: 'Sign the administrator in to the console (form: username, password, csrf, next)' }, async (req, res) => {
    const form = (req.body ?? {}) as SignInForm;
    const next = safeNext(form.next);
    const username = text(form.username);
    const expected = readCookie(req.headers.cookie, SIGN_IN_COOKIE);
    const refuse = (error: VelaError, message: string) => {
      if (wantsJson(req)) throw error;
      signInPage(res, error.status, { next, username, message });
    };
    if (!expected || !text(form.csrf) || !sameSecret(expected, text(form.csrf))) {
      return refuse(consoleErrors.signInCsrf(), 'The sign-in form had expired. Please sign in again.');
    }
    if (!username || !text(form.password)) return refuse(consoleErrors.missingCredentials(), 'Enter the user name and the password.');
    const key = throttleKey(req.ip, username);
    const wait = throttle.retryAfterSeconds(key);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return refuse(consoleErrors.tooManySignIns(wait), `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`);
    }
    const account = await accounts.authenticate(username, text(form.password));
    if (!account) {
      throttle.fail(key);
      return refuse(consoleErrors.wrongCredentials(), 'The user name or password is not right.');
    }
    throttle.succeed(key);
    const session = await accounts.createSession(account);
    const maxAge = Math.round((Date.parse(session.expiresAt) - Date.now()) / 1000);
    res.append('Set-Cookie', sessionCookie(session.token, maxAge, req.secure));
    res.append('Set-Cookie', `${SIGN_IN_COOKIE}=; Path=${SIGN_IN}; HttpOnly; SameSite=Strict; Max-Age=0`);
    res.redirect(303, next);
  });

  router.post('/console/logout', { ...hidden, summary: 'Sign out of the console (form: csrf)' }, async (req, res) => {
    const user = await consoleUser(req, accounts);
    if (user) {
      const csrf = text((req.body as { csrf?: unknown } | undefined)?.csrf);
      if (!csrf || !sameSecret(csrf, user.csrfToken)) throw consoleErrors.sessionCsrf();
      await accounts.deleteSession(readCookie(req.headers.cookie, SESSION_COOKIE)!);
    }
    res.append('Set-Cookie', sessionCookie('', 0, req.secure));
    res.redirect(303, SIGN_IN);
  });
}
