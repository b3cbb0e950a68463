import type { ServerResponse } from 'node:http';

/**
 * Headers every answer of every service carries. The service sets them before routing, so JSON, errors,
 * redirects and pages all get them; code that answers outside express (interceptors) sends them itself.
 * The CSP fits answers that are not pages (nothing may load, nothing may frame them); a plugin serving
 * HTML replaces it with its page's own policy, which must keep `frame-ancestors 'none'` (X-Frame-Options
 * still refuses framing in browsers that read only that).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

export function setSecurityHeaders(res: ServerResponse): void {
  for (const name in SECURITY_HEADERS) res.setHeader(name, SECURITY_HEADERS[name]!);
}

/**
 * Request headers that carry credentials for Vela itself (the access policy's Basic credentials and API
 * keys, the console session's CSRF token), lower case: a proxy in front of other servers must not pass
 * them on.
 */
export const VELA_CREDENTIAL_HEADERS: readonly string[] = Object.freeze(['authorization', 'key', 'x-csrf-token']);

/**
 * Every cookie Vela sets is named with this prefix: the runtime's session (SESSION_COOKIE) and the
 * consoles' sign-in cookies. Browsers send cookies per host, not per port, so another service on the same
 * host (an upstream behind the gateway) receives them unless they are taken out.
 */
export const VELA_COOKIE_PREFIX = 'vela_';
