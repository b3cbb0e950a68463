import { type Schema, type ValidationError, Validator } from 'jsonschema';
import {
  isCredentialAddressMember,
  isSecretMember,
  maskUrlPasswords,
  redactedValue,
  shownAddress,
} from '../secret-values.js';

export type JsonSchema = Schema;

export interface ValidationOptions {
  /** Fill members left out with the schema's `default` (on a copy; the input is not changed). */
  applyDefaults?: boolean;
  /** Prefix for member paths in messages, e.g. `plugins.search`. */
  root?: string;
}

export interface ValidationResult<T> {
  valid: boolean;
  value: T;
  /** One sentence a problem, naming the member, the value and what was expected. */
  problems: string[];
}

const validator = new Validator();

/** Keywords whose value maps member names to schemas. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
const hardened = new WeakMap<object, JsonSchema>();

/**
 * The schema with every name map (`properties`, ...) copied into an object without a prototype. jsonschema
 * looks members up with `name in properties`, so on a plain object `constructor`, `toString` or `__proto__`
 * count as declared and slip past `additionalProperties: false`.
 */
function harden(schema: JsonSchema): JsonSchema {
  let copy = hardened.get(schema);
  if (!copy) {
    copy = hardenValue(schema, false) as JsonSchema;
    hardened.set(schema, copy);
  }
  return copy;
}

function hardenValue(value: unknown, nameMap: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => hardenValue(item, false));
  if (!value || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = nameMap ? Object.create(null) : {};
  for (const [key, member] of Object.entries(value)) {
    // `default`, `enum` and `const` are data, not schemas: kept as they are.
    copy[key] =
      key === 'default' || key === 'enum' || key === 'const'
        ? member
        : hardenValue(member, !nameMap && NAME_MAPS.has(key));
  }
  return copy;
}

/** Validate `instance` against `schema`, returning messages an operator or API client can act on. */
export function validateAgainst<T = unknown>(
  schema: JsonSchema,
  instance: unknown,
  options: ValidationOptions = {},
): ValidationResult<T> {
  const value = options.applyDefaults ? structuredClone(instance) : instance;
  const result = validator.validate(value, harden(schema), {
    nestedErrors: false,
    preValidateProperty: options.applyDefaults ? fillDefault : undefined,
  });
  const problems = dedupe([
    ...result.errors.map((e) => describe(e, options.root)),
    ...unstorableText(value, options.root),
  ]);
  return { valid: problems.length === 0, value: value as T, problems };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * Members that name or identify something: one line of text, where a control character is a mistake or an
 * attack (on logs, on terminals, on lookups). Free text (descriptions, content) may hold tabs and line breaks.
 */
const NAME_MEMBER = /^(id|name|username|locale)s?$|[a-z](Id|Name)s?$/;
const MAX_TEXT_PROBLEMS = 10;

/**
 * Strings no store can take, named by member: NUL anywhere (PostgreSQL's text types cannot hold U+0000, so
 * it would fail as a 500 there and pass on SQLite), and any control character in a member name, in a path
 * parameter or in a member that names or identifies something. Iterative: bodies nest up to 64 levels.
 */
function unstorableText(instance: unknown, root: string | undefined): string[] {
  const problems: string[] = [];
  const stack: Array<[unknown, string, string | null]> = [[instance, 'instance', null]];
  while (stack.length > 0 && problems.length < MAX_TEXT_PROBLEMS) {
    const [value, property, member] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value, root === 'path' || (member !== null && NAME_MEMBER.test(member)));
      if (problem) problems.push(`${memberPath(property, root)} ${problem}`);
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push([item, `${property}[${i}]`, member]);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key, true);
        if (problem) problems.push(`${memberPath(property, root)}: a member name ${problem}`);
        else stack.push([item, `${property}.${key}`, key]);
      }
    }
  }
  return problems;
}

function textProblem(text: string, isName: boolean): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000): stored text cannot hold it';
  const found = isName ? CONTROL.exec(text) : null;
  return found
    ? `must not contain control characters, found U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position ${found.index + 1}`
    : null;
}

function fillDefault(object: unknown, key: string, propertySchema: Schema): void {
  if (
    object &&
    typeof object === 'object' &&
    (object as Record<string, unknown>)[key] === undefined &&
    propertySchema.default !== undefined
  ) {
    (object as Record<string, unknown>)[key] = structuredClone(propertySchema.default);
  }
}

function memberPath(property: string, root?: string): string {
  // jsonschema names the checked value `instance`, `instance.a.b` or `instance.a[0]`.
  const rest = property.replace(/^instance/, '').replace(/^\./, '');
  if (root) return rest ? `${root}.${rest}`.replace('.[', '[') : root;
  return rest || '(the whole value)';
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What the message says about the value: never a secret, never an address's password. */
function gotPhrase(at: string, error: ValidationError): string {
  const secret =
    isSecretMember(at) ||
    (typeof error.schema === 'object' && (error.schema as { writeOnly?: boolean }).writeOnly === true);
  if (secret) return 'got a value that is not shown (a secret)';
  if (typeof error.instance === 'string' && isCredentialAddressMember(at)) {
    const address = shownAddress(error.instance);
    return address === undefined ? 'got a value that is not shown (it may carry credentials)' : `got ${shown(address)}`;
  }
  // An object or a list may hold secrets of its own (a `runtime.admin` given as the wrong type).
  const value =
    error.instance && typeof error.instance === 'object' ? redactedValue(error.instance, at) : error.instance;
  return `got ${maskUrlPasswords(shown(value))}`;
}

function describe(error: ValidationError, root?: string): string {
  const at = memberPath(error.property, root);
  const arg = error.argument as unknown;
  const got = gotPhrase(at, error);
  switch (error.name) {
    case 'required':
      return `${at === '(the whole value)' ? '' : `${at}.`}${String(arg)} is required`;
    case 'additionalProperties':
      return `${at === '(the whole value)' ? '' : `${at}.`}${String(arg)} is not a known member (allowed: ${Object.keys(error.schema && typeof error.schema === 'object' ? (error.schema.properties ?? {}) : {}).join(', ') || 'none'})`;
    case 'type':
      return `${at} must be of type ${(arg as string[]).join(' or ')}, ${got}`;
    case 'enum':
      return `${at} must be one of ${(arg as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, ${got}`;
    case 'minimum':
      return `${at} must be at least ${String(arg)}, ${got}`;
    case 'maximum':
      return `${at} must be at most ${String(arg)}, ${got}`;
    case 'minLength':
      return `${at} must be at least ${String(arg)} characters long, ${got}`;
    case 'maxLength':
      return `${at} must be at most ${String(arg)} characters long, ${got}`;
    case 'minItems':
      return `${at} must have at least ${String(arg)} items, ${got}`;
    case 'maxItems':
      return `${at} must have at most ${String(arg)} items, ${got}`;
    case 'pattern':
      return `${at} must match ${String(arg)}, ${got}`;
    case 'format':
      return `${at} must be a valid ${String(arg)}, ${got}`;
    default:
      return `${at} ${error.message}, ${got}`;
  }
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)];
}
