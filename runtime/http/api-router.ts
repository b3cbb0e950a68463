import express, { type RequestHandler, type Router } from 'express';
import type { HttpMethod, OpenApiRegistry, RouteSpec } from './openapi-registry.js';
import { validateRequest } from './request-validation.js';

type Route = (path: string, spec: RouteSpec, ...handlers: RequestHandler[]) => ApiRouter;

/**
 * A plugin's router: each route states its schemas once, and they both validate the request and
 * describe it in the service's OpenAPI document. Routes with a body method parse JSON and form
 * bodies up to the service's limit (or the route's `bodyLimit`). `raw` is the plain express router
 * for what is not an API (static pages, console); it parses no bodies.
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
  readonly raw: Router;
}

const WITH_BODY = new Set<HttpMethod>(['post', 'put', 'patch', 'delete']);

function bodyParsers(limit: string): RequestHandler[] {
  return [
    express.json({ limit, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ limit, extended: false }),
  ];
}

export function createApiRouter(openapi: OpenApiRegistry, plugin: string, defaultBodyLimit: string): ApiRouter {
  const raw = express.Router();
  const defaultParsers = bodyParsers(defaultBodyLimit);
  const route = (method: HttpMethod): Route => (path, spec, ...handlers) => {
    openapi.addRoute(method, path, spec, plugin);
    const parsers = WITH_BODY.has(method) ? (spec.bodyLimit ? bodyParsers(spec.bodyLimit) : defaultParsers) : [];
    const validation = spec.validate !== false && (spec.params || spec.query || spec.body) ? [validateRequest(spec)] : [];
    raw[method](path, ...parsers, ...validation, ...handlers);
    return api;
  };
  const api: ApiRouter = {
    get: route('get'),
    post: route('post'),
    put: route('put'),
    patch: route('patch'),
    delete: route('delete'),
    head: route('head'),
    options: route('options'),
    use: (...handlers) => {
      raw.use(...handlers);
      return api;
    },
    raw,
  };
  return api;
}
