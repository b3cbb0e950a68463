import type { ApiRouter, ConsoleKit, Request } from 'vela/plugin';

export const RECEIVE_AUTHCODE = '/console/oauth2/receive_authcode';
export const RECEIVE_IMPLICIT_TOKEN = '/console/oauth2/receive_implicit_token';

const first = (value: unknown): string =>
  Array.isArray(value) ? first(value[0]) : typeof value === 'string' ? value : '';

interface Receiver {
  path: string;
  title: string;
  name: string;
  /** Query parameters shown, by template placeholder. */
  shows: Record<string, string>;
}

const RECEIVERS: Receiver[] = [
  {
    path: RECEIVE_AUTHCODE,
    title: 'Authorization code received',
    name: 'receive-authcode',
    shows: { code: 'code', state: 'state' },
  },
  {
    path: RECEIVE_IMPLICIT_TOKEN,
    title: 'Access token received',
    name: 'receive-implicit-token',
    shows: { accessToken: 'access_token', state: 'state', tokenType: 'token_type', expiresIn: 'expires_in' },
  },
];

function shown(req: Request, receiver: Receiver): Record<string, string> {
  const values: Record<string, string> = {
    error: first(req.query.error),
    errorDescription: first(req.query.error_description),
  };
  for (const [placeholder, parameter] of Object.entries(receiver.shows))
    values[placeholder] = first(req.query[parameter]);
  return values;
}

/**
 * The two redirect targets the console offers to OAuth2 clients (spec rule 3). They show what the
 * authorization server sent in the query; they need no session, because a client developer may run a
 * grant from any browser, and what they show is already in the URL.
 */
export function mountReceiverRoutes(router: ApiRouter, kit: ConsoleKit): void {
  for (const receiver of RECEIVERS) {
    router.get(
      receiver.path,
      { access: 'public', hidden: true, summary: `Console: ${receiver.title}` },
      async (req, res) => {
        kit.send(res, 200, {
          title: receiver.title,
          user: await kit.user(req),
          template: `${receiver.name}.html`,
          script: `${receiver.name}.js`,
          values: shown(req, receiver),
        });
      },
    );
  }
}
