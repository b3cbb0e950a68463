import type { App, AppStore } from '../store/app-store.js';
import type { CodeStore } from './code-store.js';
import { OAuthError, oauthErrors } from './oauth-error.js';
import { PKCE_VALUE } from './pkce.js';
import { newSecret } from './secrets.js';
import type { TokenStore } from './token-store.js';

/** The console's two receiver pages, always accepted as redirect_uri on the gateway's own origin. */
export const CONSOLE_RECEIVERS = ['/console/oauth2/receive_authcode', '/console/oauth2/receive_implicit_token'];

// A type (not an interface) so it fits the plain parameter record that checkParams takes.
export type AuthorizeParams = {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
};

export interface AuthorizeDeps {
  apps: AppStore;
  codes: CodeStore;
  tokens: TokenStore;
  codeTtlSeconds: number;
  accessTokenTtlSeconds: number;
}

/**
 * `GET /api/authorize`: the Location to redirect to. Every problem is an OAuthError answered as
 * 400 JSON, never a redirect: an unknown client or an unregistered redirect_uri must not send the
 * browser anywhere (RFC 6749 §4.1.2.1), and the spec wants the same for a bad response_type.
 * `ownBases` are the gateway's public base URLs (the console receivers are under them), never the request's Host.
 */
export async function authorize(
  params: AuthorizeParams,
  ownBases: readonly string[],
  deps: AuthorizeDeps,
): Promise<string> {
  checkParams(params);
  if (!params.client_id) throw oauthErrors.missing('client_id', "the app's Consumer Key (apiKey)");
  await deps.apps.catchUp(params.client_id);
  const app = deps.apps.findByApiKey(params.client_id);
  if (!app) throw oauthErrors.unknownClient(params.client_id);
  const redirectUri = chooseRedirectUri(app, params.redirect_uri, ownBases);
  const responseType = params.response_type;
  if (!responseType)
    throw oauthErrors.missing('response_type', '"code" (authorization-code grant) or "token" (implicit grant)');
  if (responseType !== 'code' && responseType !== 'token') throw oauthErrors.unsupportedResponseType(responseType);
  // The state always comes back, so a client can match the redirect to its request.
  const state = params.state || newSecret();
  if (responseType === 'token') {
    const { token } = await deps.tokens.issue('access', app.id, 'implicit', deps.accessTokenTtlSeconds, {
      scope: params.scope ?? null,
    });
    return withQuery(redirectUri, {
      access_token: token,
      state,
      token_type: 'bearer',
      expires_in: String(deps.accessTokenTtlSeconds),
    });
  }
  const codeChallenge = readChallenge(params);
  const code = await deps.codes.create(app.id, redirectUri, deps.codeTtlSeconds, {
    codeChallenge,
    scope: params.scope ?? null,
  });
  return withQuery(redirectUri, { code, state });
}

function chooseRedirectUri(app: App, requested: string | undefined, ownBases: readonly string[]): string {
  if (!requested) {
    // RFC 6749 §3.1.2.3: without redirect_uri, an app with exactly one registered URL uses it.
    if (app.callbackUrls.length === 1) return app.callbackUrls[0]!;
    throw oauthErrors.missing('redirect_uri', `one of the app's callbackUrls or ${ownBases[0]}${CONSOLE_RECEIVERS[0]}`);
  }
  if (app.callbackUrls.includes(requested) || isConsoleReceiver(requested, ownBases)) return requested;
  throw new OAuthError(
    'invalid_request',
    `redirect_uri ${JSON.stringify(requested)} is neither one of the app's callbackUrls nor a console receiver (${CONSOLE_RECEIVERS.map((p) => ownBases[0] + p).join(', ')})`,
  );
}

function isConsoleReceiver(uri: string, ownBases: readonly string[]): boolean {
  if (CONSOLE_RECEIVERS.includes(uri)) return true;
  // Even an empty "#" would put the code or token in the fragment, where the receiver does not look.
  if (uri.includes('#')) return false;
  try {
    const url = new URL(uri);
    return (
      !url.username &&
      !url.password &&
      !url.search &&
      CONSOLE_RECEIVERS.some((path) => ownBases.some((base) => `${url.origin}${url.pathname}` === `${base}${path}`))
    );
  } catch {
    return false;
  }
}

function readChallenge(params: AuthorizeParams): string | null {
  if (!params.code_challenge) {
    if (params.code_challenge_method)
      throw oauthErrors.missing('code_challenge', 'code_challenge_method was sent without it');
    return null;
  }
  if ((params.code_challenge_method ?? 'plain') !== 'S256')
    throw oauthErrors.invalidRequest(
      `code_challenge_method must be S256, got ${JSON.stringify(params.code_challenge_method ?? 'plain')} (plain is not accepted)`,
    );
  if (!PKCE_VALUE.test(params.code_challenge))
    throw oauthErrors.invalidRequest(
      'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)',
    );
  return params.code_challenge;
}

// What the store keeps of a request (its columns' sizes); a client_id is an app's 32-character apiKey.
const LIMITS: Array<[keyof AuthorizeParams, number]> = [
  ['client_id', 200],
  ['redirect_uri', 2000],
  ['scope', 500],
  ['state', 2000],
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Every OAuth parameter is one line of URL-safe text: a control character is refused before any lookup
 * (PostgreSQL cannot even compare a string holding NUL), and the stored ones are bounded to their columns.
 */
export function checkParams(params: Record<string, string | undefined>): void {
  for (const [param, value] of Object.entries(params)) {
    if (typeof value === 'string' && CONTROL.test(value)) throw oauthErrors.controlCharacter(param);
  }
  for (const [param, max] of LIMITS) if ((params[param]?.length ?? 0) > max) throw oauthErrors.tooLong(param, max);
}

/** Add parameters to a redirect URI's query, keeping the query it already has. */
function withQuery(uri: string, params: Record<string, string>): string {
  return `${uri}${uri.includes('?') ? '&' : '?'}${new URLSearchParams(params).toString()}`;
}
