import type { NextFunction, Request, Response } from 'express';
import { type JsonSchema, validateAgainst } from '../config/schema-validation.js';
import { httpErrors } from '../errors.js';

type Props = Record<string, JsonSchema>;

function typesOf(schema: JsonSchema | undefined): string[] {
  if (!schema?.type) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function coerceScalar(value: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value.trim()))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Query strings and path parameters arrive as strings; turn them into what the schema declares
 * (numbers, booleans, arrays) so the same schema can validate them. What cannot be converted is
 * left as it is, and validation names it.
 */
export function coerceToSchema(input: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Props;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const propSchema = props[key];
    if (typesOf(propSchema).includes('array')) {
      const list = Array.isArray(value) ? value : [value];
      out[key] = list.map((v) =>
        typeof v === 'string' ? coerceScalar(v, propSchema?.items as JsonSchema | undefined) : v,
      );
    } else if (Array.isArray(value) && !typesOf(propSchema).includes('array') && propSchema) {
      out[key] = value; // a repeated scalar parameter: validation reports it
    } else {
      out[key] = typeof value === 'string' ? coerceScalar(value, propSchema) : value;
    }
  }
  return out;
}

declare global {
  interface String {
    /** ES2024 (Node 20 has it; the project's TypeScript lib is ES2023). */
    isWellFormed(): boolean;
  }
}

const MAX_TEXT_PROBLEMS = 10;

/** Where a string's first lone surrogate is, as the problem's words. */
function loneSurrogate(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return `a lone surrogate U+${unit.toString(16).toUpperCase()} at position ${i + 1}`;
    } else if (unit >= 0xdc00 && unit <= 0xdfff)
      return `a lone surrogate U+${unit.toString(16).toUpperCase()} at position ${i + 1}`;
  }
  return 'a lone surrogate';
}

/**
 * Strings JSON accepts (`"\ud800"`) that are not well-formed UTF-16: no UTF-8 can spell them, so every
 * encodeURIComponent, Buffer, database or engine further on would fail on them or change them. Named by
 * member as validation names them (`body.variables.q`, `query.q`, `path.id`), the member names included;
 * at most a few. Iterative: bodies nest up to 64 levels.
 */
export function malformedText(value: unknown, root: string): string[] {
  const problems: string[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && problems.length < MAX_TEXT_PROBLEMS) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (!current.isWellFormed())
        problems.push(`${at} must be well-formed Unicode text, found ${loneSurrogate(current)}`);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${at}[${i}]`]);
    } else if (current && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, member] = entries[i]!;
        if (key.isWellFormed()) stack.push([member, `${at}.${key}`]);
        else problems.push(`${at}: a member name must be well-formed Unicode text, found ${loneSurrogate(key)}`);
      }
    }
  }
  return problems;
}

/**
 * What is wrong with a parsed body, found in one walk (every JSON body passes here, imports included): it nests
 * deeper than `maxDepth`, or a string or member name in it is not well-formed UTF-16. Iterative, so a hostile
 * body cannot exhaust the stack while it is measured; no array per object or member, no paths built (the
 * problem is named afterwards, by `malformedText`).
 */
export function bodyProblem(value: unknown, maxDepth: number): 'depth' | 'text' | null {
  if (typeof value === 'string') return value.isWellFormed() ? null : 'text';
  if (!value || typeof value !== 'object') return null;
  const objects: object[] = [value];
  const depths: number[] = [1];
  while (objects.length > 0) {
    const current = objects.pop()! as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > maxDepth) return 'depth';
    if (Array.isArray(current)) {
      for (const member of current) {
        if (typeof member === 'string') {
          if (!member.isWellFormed()) return 'text';
        } else if (member && typeof member === 'object') {
          objects.push(member);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (!key.isWellFormed()) return 'text';
      const member = current[key];
      if (typeof member === 'string') {
        if (!member.isWellFormed()) return 'text';
      } else if (member && typeof member === 'object') {
        objects.push(member);
        depths.push(depth + 1);
      }
    }
  }
  return null;
}

const CHECKED_BODY = Symbol('vela.checkedBody');
const CHECKED_PARAMS = Symbol('vela.checkedParams');
const CHECKED_QUERY = Symbol('vela.checkedQuery');
type Checked = Request & { [CHECKED_BODY]?: unknown; [CHECKED_PARAMS]?: unknown; [CHECKED_QUERY]?: boolean };

/** The body's text was checked (by the runtime's body parsers): the checks before the handlers skip it. */
export function markBodyChecked(req: Request): void {
  (req as Checked)[CHECKED_BODY] = req.body;
}

/**
 * Every route of every plugin, before its validation and before each of its handlers: path parameters, the
 * query and the body hold only well-formed text, or the request is a 400 naming the member. A body parsed by
 * the runtime was checked as it was parsed; one a route parses itself is checked before the handler after it.
 * (Express's decoding cannot make a lone surrogate today: `%ED%A0%80` in a path is its 400, in a query U+FFFD;
 * the check holds whatever decodes them.)
 */
export function refuseMalformedText(req: Request, _res: Response, next: NextFunction): void {
  const checked = req as Checked;
  let problems: string[] | null = null;
  if (checked[CHECKED_PARAMS] !== req.params) {
    checked[CHECKED_PARAMS] = req.params;
    if (bodyProblem(req.params, Number.POSITIVE_INFINITY) === 'text') problems = malformedText(req.params, 'path');
  }
  if (!checked[CHECKED_QUERY]) {
    checked[CHECKED_QUERY] = true;
    if (req.url.includes('?')) {
      // Express parses the query again at every read of req.query: kept, validation and handlers read this one.
      const query = req.query as Record<string, unknown>;
      replace(req, 'query', query);
      // The walk without paths first: the paths are built only to name what is refused.
      if (bodyProblem(query, Number.POSITIVE_INFINITY) === 'text')
        problems = [...(problems ?? []), ...malformedText(query, 'query')];
    }
  }
  if (req.body !== undefined && checked[CHECKED_BODY] !== req.body) {
    checked[CHECKED_BODY] = req.body;
    if (bodyProblem(req.body, Number.POSITIVE_INFINITY) === 'text')
      problems = [...(problems ?? []), ...malformedText(req.body, 'body')];
  }
  next(problems ? httpErrors.validation(problems.join('; ')) : undefined);
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function replace(req: Request, key: 'query' | 'params', value: Record<string, unknown>): void {
  // Express 5 defines req.query as a getter; an own property shadows it for the handlers after us.
  Object.defineProperty(req, key, { value, writable: true, configurable: true, enumerable: true });
}

export interface RequestSchemas {
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
}

/** Express middleware checking params, query and body against their schemas (with defaults filled). */
export function validateRequest(schemas: RequestSchemas) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const problems: string[] = [];
    if (schemas.params) {
      const result = validateAgainst<Record<string, unknown>>(
        schemas.params,
        coerceToSchema(req.params as Record<string, unknown>, schemas.params),
        {
          applyDefaults: true,
          root: 'path',
        },
      );
      problems.push(...result.problems);
      if (result.valid) replace(req, 'params', result.value);
    }
    if (schemas.query) {
      const result = validateAgainst<Record<string, unknown>>(
        schemas.query,
        coerceToSchema(req.query as Record<string, unknown>, schemas.query),
        {
          applyDefaults: true,
          root: 'query',
        },
      );
      problems.push(...result.problems);
      if (result.valid) replace(req, 'query', result.value);
    }
    if (schemas.body) {
      if (req.body === undefined && hasBody(req)) {
        return next(
          httpErrors.unsupportedMediaType(
            `send the request body as application/json, got Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')}`,
          ),
        );
      }
      const result = validateAgainst(schemas.body, req.body, { applyDefaults: true, root: 'body' });
      problems.push(...(req.body === undefined ? ['a JSON request body is required'] : result.problems));
      if (result.valid) {
        // Defaults filled in come from the schema: a body checked for its text stays checked.
        const checked = (req as Checked)[CHECKED_BODY] === req.body;
        req.body = result.value;
        if (checked) markBodyChecked(req);
      }
    }
    if (problems.length > 0) return next(httpErrors.validation(problems.join('; ')));
    next();
  };
}
