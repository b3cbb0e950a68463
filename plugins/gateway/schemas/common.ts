import { type JsonSchema, pathParams } from 'vela/plugin';

/**
 * Ids of mappings and apps: UUIDs as the gateway makes them (the original's were too). A path that cannot
 * be one is refused before any lookup; the columns hold 36 characters.
 */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };

export const idParam = pathParams({ id: idSchema });
