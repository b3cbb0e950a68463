// Grants started from the console remember, per `state`, which app they are for (and the PKCE
// verifier), so the receiver page can fill in the token request. sessionStorage: this tab only.

const KEY = 'vela.grant.';
export const RECEIVE_AUTHCODE = '/console/oauth2/receive_authcode';
export const RECEIVE_IMPLICIT_TOKEN = '/console/oauth2/receive_implicit_token';

const base64url = (bytes) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const randomString = (size) => base64url(crypto.getRandomValues(new Uint8Array(size)));

/** The authorize URL for a grant of this app, with a fresh state (and PKCE S256 where the browser can hash). */
export async function startGrant(responseType, clientId) {
  const state = randomString(12);
  const receiver = responseType === 'code' ? RECEIVE_AUTHCODE : RECEIVE_IMPLICIT_TOKEN;
  const query = new URLSearchParams({
    response_type: responseType,
    client_id: clientId,
    redirect_uri: location.origin + receiver,
    state,
  });
  const remembered = { clientId };
  // crypto.subtle exists only in secure contexts (https, localhost); without it the grant runs without PKCE.
  if (responseType === 'code' && crypto.subtle) {
    const verifier = randomString(48);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    query.set('code_challenge', base64url(digest));
    query.set('code_challenge_method', 'S256');
    remembered.codeVerifier = verifier;
  }
  sessionStorage.setItem(KEY + state, JSON.stringify(remembered));
  return `/api/authorize?${query}`;
}

/** What startGrant remembered for this state, once: a code can be exchanged only once anyway. */
export function takeGrant(state) {
  if (!state) return null;
  const value = sessionStorage.getItem(KEY + state);
  try {
    return value ? JSON.parse(value) : null;
  } catch {
    return null;
  }
}

export function forgetGrant(state) {
  sessionStorage.removeItem(KEY + state);
}
