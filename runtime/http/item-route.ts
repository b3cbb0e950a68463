import type { Request } from 'express';
import type { JsonSchema } from '../config/schema-validation.js';
import type { ApiRouter } from './api-router.js';
import type { RouteSpec } from './openapi-registry.js';

/** The methods of an item route: each answers one thing (what it read, created, changed or deleted). */
export type ItemMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An item route's spec: a route's, with its answer said as the schema of the one thing it answers. */
export interface ItemSpec extends Omit<RouteSpec, 'responses'> {
  /** The schema of what the route answers. */
  schema: JsonSchema;
  /** What it answers, in the API description: "the app". */
  description: string;
  /** The answer's status: 200, or 201 for what a POST created. */
  status?: 200 | 201;
  /** The route's other answers (a 404 for what does not exist, a 409 for a taken name). */
  responses?: RouteSpec['responses'];
}

/**
 * `method` `path`: the one thing `answer` gives for the request (reads it, creates it, changes it, tells what a
 * deletion did; or throws the error that says why not), answered as JSON with `status`, documented from `schema`.
 */
export function itemRoute(
  router: ApiRouter,
  method: ItemMethod,
  path: string,
  { schema, description, status = 200, responses, ...spec }: ItemSpec,
  answer: (req: Request) => unknown,
): ApiRouter {
  return router[method](
    path,
    { ...spec, responses: { [status]: { description, schema }, ...responses } },
    async (req, res) => {
      res.status(status).json(await answer(req));
    },
  );
}
