import type { Request } from 'express';
import type { JsonSchema } from '../config/schema-validation.js';
import type { ApiRouter, DeleteSpec } from './route-types.js';

export type { DeleteSpec } from './route-types.js';

/** The answer to a deletion: `deleted` is always true, with the id (and the name, where there is one) of what went. */
export const deletedSchema: JsonSchema = {
  type: 'object',
  required: ['deleted', 'id'],
  properties: { deleted: { type: 'boolean', enum: [true] }, id: { type: 'string' }, name: { type: 'string' } },
};

/**
 * DELETE `path`: `remove` deletes what the request names (or throws the error that says why not) and tells what
 * it deleted, answered as `{ deleted: true, id, name? }` (deletedSchema).
 */
export function deleteRoute(
  router: ApiRouter,
  path: string,
  { description, responses, ...spec }: DeleteSpec,
  remove: (req: Request) => Promise<{ id: string; name?: string }>,
): ApiRouter {
  return router.delete(
    path,
    { ...spec, responses: { 200: { description, schema: deletedSchema }, ...responses } },
    async (req, res) => {
      const { id, name } = await remove(req);
      res.json(name === undefined ? { deleted: true, id } : { deleted: true, id, name });
    },
  );
}
