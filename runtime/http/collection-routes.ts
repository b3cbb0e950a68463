import type { Request } from 'express';
import type { Collection, CollectionSpec, MemberSpec, RouteGroup } from './route-types.js';

export type { Collection, CollectionSpec } from './route-types.js';

/** The collection `spec` describes, its routes in `group` (which says their access, scope and tags). */
export function collectionRoutes(group: RouteGroup, spec: CollectionSpec): Collection {
  const { path, id = 'id', params, description, schema, responses } = spec;
  const member = `${path}/:${id}`;
  const idOf = (req: Request) => String(req.params[id]);
  const one = (own: MemberSpec) => ({
    params,
    description,
    schema,
    ...own,
    responses: { ...responses, ...own.responses },
  });
  const collection: Collection = {
    list: (own, list) => {
      group.list(path, { ...own, items: schema }, list);
      return collection;
    },
    create: (own, create) => {
      group.item('post', path, { description, schema, status: 201, ...own }, create);
      return collection;
    },
    read: (own, read) => {
      group.item('get', member, one(own), (req) => read(idOf(req), req));
      return collection;
    },
    replace: (own, replace) => {
      group.item('put', member, one(own), (req) => replace(idOf(req), req));
      return collection;
    },
    delete: (own, remove) => {
      group.item('delete', member, one(own), (req) => remove(idOf(req), req));
      return collection;
    },
    remove: (own, remove) => {
      group.remove(member, { params, ...own, responses: { ...responses, ...own.responses } }, (req) =>
        remove(idOf(req), req),
      );
      return collection;
    },
  };
  return collection;
}
