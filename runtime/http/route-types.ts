import type { Request, RequestHandler, Router } from 'express';
import type { RouteAccess } from '../auth/access-policy.js';
import type { JsonSchema } from '../config/schema-validation.js';
import type { RouteSpec } from './openapi-registry.js';

// The types of a plugin's routes, in one module: the router and its route groups name each other, and the
// modules that build them (api-router, route-group, the route kinds) all import these.

export type Route = (path: string, spec: RouteSpec, ...handlers: RequestHandler[]) => ApiRouter;

/**
 * A plugin's router: each route states who may call it and its schemas once; the runtime enforces the
 * access, and the schemas both validate the request and describe it in the service's OpenAPI
 * document. Routes with a body method parse JSON and form bodies up to the service's limit (or the
 * route's `bodyLimit`). `raw` is the plain express router for what is not an API (static pages,
 * console); it parses no bodies and checks no access.
 */
export interface ApiRouter {
  get: Route;
  post: Route;
  put: Route;
  patch: Route;
  delete: Route;
  head: Route;
  options: Route;
  use(...handlers: RequestHandler[]): ApiRouter;
  /** The service's sign-in page: browsers asking for a page without credentials go there, never to a Basic dialog. */
  useSignInPage(path: string): ApiRouter;
  /** The routes that share `defaults` (access, scope, tags): their specs say only what differs. */
  withDefaults(defaults: RouteDefaults): RouteGroup;
  readonly raw: Router;
}

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

/** A listing route's spec: a route's, with its answer said as what the array holds. */
export interface ListSpec extends Omit<RouteSpec, 'responses'> {
  /** The schema of one member of the array. */
  items: JsonSchema;
  /** What the array is, in the API description: "sites". */
  description: string;
  /** The route's other answers (a 404 for a site that does not exist). */
  responses?: RouteSpec['responses'];
}

/** A deletion route's spec: a route's, with its 200 answer said in words. */
export interface DeleteSpec extends Omit<RouteSpec, 'responses'> {
  /** What the 200 answer means: "the app is deleted". */
  description: string;
  /** The route's other answers (a 409 while something still uses it). */
  responses?: RouteSpec['responses'];
}

/** What the routes of a group say alike: who may call them (always), and any other member of a spec. */
export type RouteDefaults = Pick<RouteSpec, 'access'> & Partial<Omit<RouteSpec, 'access'>>;

/** A spec within a group: the group's defaults fill what it leaves out, its access among them. */
export type InGroup<S extends { access: RouteAccess }> = Omit<S, 'access'> & { access?: RouteAccess };

export type GroupRoute = (path: string, spec: InGroup<RouteSpec>, ...handlers: RequestHandler[]) => RouteGroup;

/**
 * Routes that share their access, scope and tags (a file's reading routes, say): each spec says only what
 * differs, and a member it gives wins over the group's. The route kinds of the SDK come with it: `item`
 * (itemRoute), `list` (listRoute), `remove` (deleteRoute), and `collection` (collectionRoutes).
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
  /** The usual routes of a collection whose members a path parameter names (collectionRoutes). */
  collection(spec: CollectionSpec): Collection;
}

/** A collection whose members a path parameter names: what its routes share. */
export interface CollectionSpec {
  /** The collection's path ("/api/v2/app"); a member's is `${path}/:${id}`. */
  path: string;
  /** The member path's parameter that names one (default "id"). */
  id?: string;
  /** The member path's parameters (the id's schema, and those the collection's path has). */
  params: JsonSchema;
  /** What one member is, in the API description ("the app"), and its schema. */
  description: string;
  schema: JsonSchema;
  /** The member routes' other answers: the 404 for a member that does not exist. */
  responses?: RouteSpec['responses'];
}

/** A member route's spec: the collection's answer, path parameters and other answers, unless it says its own. */
export type MemberSpec = Partial<InGroup<ItemSpec>>;

/**
 * The usual routes of a collection: list it, create in it (201), read, replace and delete a member. Each says its
 * summary (and body), and what it does with the member's id; the rest is the collection's. A deletion answers
 * `{"deleted": true, "id", "name"?}` (`remove`), or what its function returns (`delete`, documented as `read` is).
 */
export interface Collection {
  list(spec: Omit<InGroup<ListSpec>, 'items'>, list: (req: Request) => unknown): Collection;
  create(spec: MemberSpec, create: (req: Request) => unknown): Collection;
  read(spec: MemberSpec, read: (id: string, req: Request) => unknown): Collection;
  replace(spec: MemberSpec, replace: (id: string, req: Request) => unknown): Collection;
  delete(spec: MemberSpec, remove: (id: string, req: Request) => unknown): Collection;
  remove(
    spec: InGroup<DeleteSpec>,
    remove: (id: string, req: Request) => Promise<{ id: string; name?: string }>,
  ): Collection;
}
