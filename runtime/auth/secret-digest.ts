import { hash, timingSafeEqual } from 'node:crypto';

/** SHA-256 as hex: what is stored of random secrets (session ids, tokens), which need no salt. */
// The one-shot `hash` makes no Hash object: about a third of createHash's cost, on every bearer-token request.
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

/** Compare two secrets without leaking where they differ through timing. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(sha256Hex(a));
  const right = Buffer.from(sha256Hex(b));
  return timingSafeEqual(left, right);
}
