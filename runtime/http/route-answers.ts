import type { JsonSchema } from '../config/schema-validation.js';
import type { RouteSpec } from './openapi-registry.js';

/** The common answer of a route: 200 with `schema`, said as `description` ("the site"), with the route's `others`. */
export function answers(
  description: string,
  schema: JsonSchema,
  others?: RouteSpec['responses'],
): NonNullable<RouteSpec['responses']> {
  return { 200: { description, schema }, ...others };
}
