import { createHash } from 'node:crypto';
import { sameSecret } from 'vela/plugin';

/** RFC 7636: a code_challenge or code_verifier is 43 to 128 unreserved characters. */
export const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Whether a code_verifier answers an S256 code_challenge (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VALUE.test(verifier)) return false;
  return sameSecret(createHash('sha256').update(verifier).digest('base64url'), challenge);
}
