import type { JsonSchema } from '../config/schema-validation.js';

type Scalar = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';

/**
 * A member's schema in short, for the plain members most records have: its type ('date-time' is an ISO string),
 * with `?` when it may be null and `[]` for a list of it. `'string?'` is `{type: ['string', 'null']}`.
 */
export type ShortSchema = Scalar | `${Scalar}?` | `${Scalar}[]`;

/** A member: a schema, or one in short. */
export type MemberSchema = JsonSchema | ShortSchema;

export function memberSchema(member: MemberSchema): JsonSchema {
  if (typeof member !== 'string') return member;
  if (member.endsWith('[]')) return { type: 'array', items: memberSchema(member.slice(0, -2) as Scalar) };
  const nullable = member.endsWith('?');
  const scalar = nullable ? member.slice(0, -1) : member;
  const type = scalar === 'date-time' ? 'string' : scalar;
  return {
    type: nullable ? [type, 'null'] : type,
    ...(scalar === 'date-time' ? { format: 'date-time' } : {}),
  };
}

function propertiesOf(members: Record<string, MemberSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(members).map(([name, member]) => [name, memberSchema(member)]));
}

/** A record as answers carry it, `{type: 'object', properties}`; `extra` adds keywords (`required`, `description`). */
export function recordSchema(members: Record<string, MemberSchema>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', ...extra, properties: propertiesOf(members) };
}

/** A request body: the members it takes and no other, `required` the ones it must have (none: no `required`). */
export function bodySchema(required: readonly string[], members: Record<string, MemberSchema>): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 ? { required: [...required] } : {}),
    properties: propertiesOf(members),
  };
}

/** The members of an update, from those of the create: without their defaults, as a member left out keeps its value. */
export function withoutDefaults(members: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(members).map(([name, schema]) => [name, { ...schema, default: undefined }]));
}

/**
 * Members an answer carries and a body may send back as it got them: accepted and ignored (set by the server).
 * Each is `{}`, or `{description}` when one is given.
 */
export function ignoredMembers(names: readonly string[], description?: string): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, description === undefined ? {} : { description }]));
}
