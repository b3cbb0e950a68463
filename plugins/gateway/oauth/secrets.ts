import { randomBytes } from 'node:crypto';

/** A credential, code or token: 128 bits from the CSPRNG as 32 lowercase hex characters (the spec's form). */
export const newSecret = (): string => randomBytes(16).toString('hex');

/**
 * What is stored of an issued token or code: its SHA-256 (the runtime's; the values are random, so no salt is needed).
 */
export { sha256Hex } from 'vela/plugin';

export const SECRET_PATTERN = /^[0-9a-f]{32}$/;
