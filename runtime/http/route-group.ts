import { collectionRoutes } from './collection-routes.js';
import { deleteRoute } from './delete-route.js';
import { itemRoute } from './item-route.js';
import { listRoute } from './list-route.js';
import type { RouteSpec } from './openapi-registry.js';
import type { ApiRouter, GroupRoute, InGroup, RouteDefaults, RouteGroup } from './route-types.js';

export type { InGroup, RouteDefaults, RouteGroup } from './route-types.js';

/** A group of `router`'s routes whose specs start from `defaults`. */
export function routeGroup(router: ApiRouter, defaults: RouteDefaults): RouteGroup {
  // A spec's own members win; its access only when it gives one (undefined keeps the group's).
  const full = <S>(spec: S) => ({
    ...defaults,
    ...spec,
    access: (spec as InGroup<RouteSpec>).access ?? defaults.access,
  });
  const route =
    (method: 'get' | 'post' | 'put' | 'patch' | 'delete'): GroupRoute =>
    (path, spec, ...handlers) => {
      router[method](path, full(spec), ...handlers);
      return group;
    };
  const group: RouteGroup = {
    get: route('get'),
    post: route('post'),
    put: route('put'),
    patch: route('patch'),
    delete: route('delete'),
    item: (method, path, spec, answer) => {
      itemRoute(router, method, path, full(spec), answer);
      return group;
    },
    list: (path, spec, list) => {
      listRoute(router, path, full(spec), list);
      return group;
    },
    remove: (path, spec, remove) => {
      deleteRoute(router, path, full(spec), remove);
      return group;
    },
    collection: (spec) => collectionRoutes(group, spec),
  };
  return group;
}
