import type { JsonSchema } from 'vela/plugin';

/**
 * An instance id: a UUID as the service makes them, or one a client assigns. 1 to 36 letters, digits, `_` and
 * `-` (the column holds 36 characters).
 */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };
