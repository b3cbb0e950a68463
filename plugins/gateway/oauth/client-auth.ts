import { sameSecret } from 'vela/plugin';
import type { App, AppStore } from '../store/app-store.js';
import { checkParams } from './authorize.js';
import { oauthErrors } from './oauth-error.js';

export interface ClientCredentials {
  clientId: string | null;
  clientSecret: string | null;
  viaBasic: boolean;
}

/** RFC 6749 §2.3.1: the Basic user and password are form-encoded before base64. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw oauthErrors.invalidRequest("the Authorization header's client credentials are not form-encoded");
  }
}

/** The client's id and secret, from `Authorization: Basic` or the client_id / client_secret parameters. */
export function readClientCredentials(
  params: Record<string, string | undefined>,
  authorization: string | undefined,
): ClientCredentials {
  if (authorization && /^basic /i.test(authorization)) {
    if (params.client_secret !== undefined)
      throw oauthErrors.invalidRequest(
        'send the client secret either in the Authorization header or as client_secret, not both',
      );
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0)
      throw oauthErrors.invalidClient('the Authorization header must be Basic base64(client_id:client_secret)', true);
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    // Decoded, the header's id and secret are parameters like the others.
    checkParams({ client_id: clientId, client_secret: clientSecret });
    if (params.client_id !== undefined && params.client_id !== clientId)
      throw oauthErrors.invalidRequest('client_id differs from the client named in the Authorization header');
    return { clientId, clientSecret, viaBasic: true };
  }
  return { clientId: params.client_id || null, clientSecret: params.client_secret ?? null, viaBasic: false };
}

/**
 * The calling app. A secret, when sent, must be the app's Consumer Secret; `secretRequired` makes
 * it mandatory (client_credentials, revocation, introspection). Null when no client was named and
 * none is required.
 */
export function authenticateClient(
  apps: AppStore,
  credentials: ClientCredentials,
  secretRequired: boolean,
): App | null {
  const { clientId, clientSecret, viaBasic } = credentials;
  if (!clientId) {
    if (secretRequired)
      throw oauthErrors.invalidClient(
        "this request needs the client's credentials: client_id and client_secret (form or HTTP Basic)",
        viaBasic,
      );
    return null;
  }
  const app = apps.findByApiKey(clientId);
  // Compare the secret even for an unknown client, so timing does not tell which keys exist.
  const secretOk = clientSecret !== null && sameSecret(clientSecret, app?.apiSecret ?? '');
  if (!app)
    throw oauthErrors.invalidClient(
      `client_id ${JSON.stringify(clientId)} is not the Consumer Key (apiKey) of any app`,
      viaBasic,
    );
  if (clientSecret !== null && !secretOk)
    throw oauthErrors.invalidClient("client_secret is not the app's Consumer Secret (apiSecret)", viaBasic);
  if (clientSecret === null && secretRequired)
    throw oauthErrors.invalidClient("client_secret is required: the app's Consumer Secret (apiSecret)", viaBasic);
  return app;
}
