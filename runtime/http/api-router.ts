import express, { type RequestHandler, type Router } from 'express';
import type { HttpMethod, OpenApiRegistry, RouteSpec } from './openapi-registry.js';
import { validateRequest } from './request-validation.js';

type Route = (path: string, spec: RouteSpec, ...handlers: RequestHandler[]) => ApiRouter;

/**
 * A plugin's router: each route states its schemas once, and they both validate the request and
 * describe it in the service's OpenAPI document. `raw` is the plain express router for what is
 * not an API (static pages, console).
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

export function createApiRouter(openapi: OpenApiRegistry, plugin: string): ApiRouter {
  const raw = express.Router();
  const route = (method: HttpMethod): Route => (path, spec, ...handlers) => {
    openapi.addRoute(method, path, spec, plugin);
    const validation = spec.params || spec.query || spec.body ? [validateRequest(spec)] : [];
    raw[method](path, ...validation, ...handlers);
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
