import type { Request } from 'express';
import type { JsonSchema } from '../config/schema-validation.js';
import type { ApiRouter } from './api-router.js';
import type { RouteSpec } from './openapi-registry.js';

/** A listing route's spec: a route's, with its answer said as what the array holds. */
export interface ListSpec extends Omit<RouteSpec, 'responses'> {
  /** The schema of one member of the array. */
  items: JsonSchema;
  /** What the array is, in the API description: "sites". */
  description: string;
  /** The route's other answers (a 404 for a site that does not exist). */
  responses?: RouteSpec['responses'];
}

/** GET `path`: the collection `list` gives for the request, answered as a JSON array of `items`. */
export function listRoute(
  router: ApiRouter,
  path: string,
  { items, description, responses, ...spec }: ListSpec,
  list: (req: Request) => unknown,
): ApiRouter {
  return router.get(
    path,
    { ...spec, responses: { 200: { description, schema: { type: 'array', items } }, ...responses } },
    async (req, res) => {
      res.json(await list(req));
    },
  );
}
