import type { Request } from 'express';
import type { ApiRouter, ListSpec } from './route-types.js';

export type { ListSpec } from './route-types.js';

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
