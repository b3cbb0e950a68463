import type { ApiRouter } from '../../../runtime/index.js';
import { consoleUser, type ConsoleDeps } from './console-session.js';
import { sendPage } from './render-page.js';

export const RECEIVE_AUTHCODE = '/console/oauth2/receive_authcode';
export const RECEIVE_IMPLICIT_TOKEN = '/console/oauth2/receive_implicit_token';

const first = (value: unknown): string => (Array.isArray(value) ? first(value[0]) : typeof value === 'string' ? value : '');

/**
 * The two redirect targets the console offers to OAuth2 clients (spec rule 3). They show what the
 * authorization server sent in the query; they need no session, because a client developer may run a
 * grant from any browser, and what they show is already in the URL.
 */
export function mountReceiverRoutes(router: ApiRouter, { accounts }: ConsoleDeps): void {
  router.get(RECEIVE_AUTHCODE, { hidden: true, summary: 'Console: shows the authorization code received and exchanges it for a token' }, async (req, res) => {
    const q = req.query;
    sendPage(res, 200, {
      title: 'Authorization code received',
      user: await consoleUser(req, accounts),
      template: 'receive-authcode.html',
      script: 'receive-authcode.js',
      values: { code: first(q.code), state: first(q.state), error: first(q.error), errorDescription: first(q.error_description) },
    });
  });

  router.get(RECEIVE_IMPLICIT_TOKEN, { hidden: true, summary: 'Console: shows the access token received by the implicit grant' }, async (req, res) => {
    const q = req.query;
    sendPage(res, 200, {
      title: 'Access token received',
      user: await consoleUser(req, accounts),
      template: 'receive-implicit-token.html',
      script: 'receive-implicit-token.js',
      values: {
        accessToken: first(q.access_token), state: first(q.state), tokenType: first(q.token_type), expiresIn: first(q.expires_in),
        error: first(q.error), errorDescription: first(q.error_description),
      },
    });
  });
}
