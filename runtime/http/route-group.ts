import type { Request, RequestHandler } from 'express';
import type { RouteAccess } from '../auth/access-policy.js';
import type { JsonSchema } from '../config/schema-validation.js';
import type { ApiRouter } from './api-router.js';
import { type DeleteSpec, deleteRoute } from './delete-route.js';
import { type ItemMethod, type ItemSpec, itemRoute } from './item-route.js';
import { type ListSpec, listRoute } from './list-route.js';
import type { RouteSpec } from './openapi-registry.js';

/** What the routes of a group say alike: who may call them (always), and any other member of a spec. */
export type RouteDefaults = Pick<RouteSpec, 'access'> & Partial<Omit<RouteSpec, 'access'>>;

/** A spec within a group: the group's defaults fill what it leaves out, its access among them. */
export type InGroup<S extends { access: RouteAccess }> = Omit<S, 'access'> & { access?: RouteAccess };

type GroupRoute = (path: string, spec: InGroup<RouteSpec>, ...handlers: RequestHandler[]) => RouteGroup;

/**
 * Routes that share their access, scope and tags (a file's reading routes, say): each spec says only what
 * differs, and a member it gives wins over the group's. The route kinds of the SDK come with it: `item`
 * (itemRoute), `list` (listRoute), `remove` (deleteRoute).
 */
export interface RouteGroup {
  get: GroupRoute;
  post: GroupRoute;
  put: GroupRoute;
  patch: GroupRoute;
  delete: GroupRoute;
  item(method: ItemMethod, path: string, spec: InGroup<ItemSpec>, answer: (req: Request) => unknown): RouteGroup;
  list(path: string, spec: InGroup<ListSpec>, list: (req: Request) => unknown): RouteGroup;
  remove(
    path: string,
    spec: InGroup<DeleteSpec>,
    remove: (req: Request) => Promise<{ id: string; name?: string }>,
  ): RouteGroup;
}

/** A group of `router`'s routes whose specs start from `defaults`. */
export function routeGroup(router: ApiRouter, defaults: RouteDefaults): RouteGroup {
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
  };
  return group;
}

/** The common answer of a route: 200 with `schema`, said as `description` ("the site"), with the route's `others`. */
export function answers(
  description: string,
  schema: JsonSchema,
  others?: RouteSpec['responses'],
): NonNullable<RouteSpec['responses']> {
  return { 200: { description, schema }, ...others };
}
