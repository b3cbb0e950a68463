import type { Request } from 'express';
import type { ApiRouter, ItemMethod, ItemSpec } from './route-types.js';

export type { ItemMethod, ItemSpec } from './route-types.js';

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
