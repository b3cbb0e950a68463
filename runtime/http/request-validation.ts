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
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
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
      out[key] = list.map((v) => (typeof v === 'string' ? coerceScalar(v, propSchema?.items as JsonSchema | undefined) : v));
    } else if (Array.isArray(value) && !typesOf(propSchema).includes('array') && propSchema) {
      out[key] = value; // a repeated scalar parameter: validation reports it
    } else {
      out[key] = typeof value === 'string' ? coerceScalar(value, propSchema) : value;
    }
  }
  return out;
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
      const result = validateAgainst<Record<string, unknown>>(schemas.params, coerceToSchema(req.params as Record<string, unknown>, schemas.params), {
        applyDefaults: true,
        root: 'path',
      });
      problems.push(...result.problems);
      if (result.valid) replace(req, 'params', result.value);
    }
    if (schemas.query) {
      const result = validateAgainst<Record<string, unknown>>(schemas.query, coerceToSchema(req.query as Record<string, unknown>, schemas.query), {
        applyDefaults: true,
        root: 'query',
      });
      problems.push(...result.problems);
      if (result.valid) replace(req, 'query', result.value);
    }
    if (schemas.body) {
      if (req.body === undefined && hasBody(req)) {
        return next(
          httpErrors.unsupportedMediaType(`send the request body as application/json, got Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')}`),
        );
      }
      const result = validateAgainst(schemas.body, req.body, { applyDefaults: true, root: 'body' });
      problems.push(...(req.body === undefined ? ['a JSON request body is required'] : result.problems));
      if (result.valid) req.body = result.value;
    }
    if (problems.length > 0) return next(httpErrors.validation(problems.join('; ')));
    next();
  };
}
