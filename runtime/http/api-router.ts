import express, { type RequestHandler } from 'express';
import type { AccessPolicy, RouteAccess } from '../auth/access-policy.js';
import { bootErrors, httpErrors } from '../errors.js';
import type { CorsPolicy } from './cors.js';
import type { HttpMethod, OpenApiRegistry, RouteSpec } from './openapi-registry.js';
import {
  bodyProblem,
  malformedText,
  markBodyChecked,
  refuseMalformedText,
  validateRequest,
} from './request-validation.js';
import { routeGroup } from './route-group.js';
import type { ApiRouter, Route } from './route-types.js';

export type { ApiRouter } from './route-types.js';

const WITH_BODY = new Set<HttpMethod>(['post', 'put', 'patch', 'delete']);

const FORM = 'application/x-www-form-urlencoded';
/** Deeper bodies are refused: validation, cloning and handlers recurse, and no API needs more. */
export const MAX_BODY_DEPTH = 64;

function bodyParsers(limit: string, forms: boolean, strict = true): RequestHandler[] {
  const json = express.json({ limit, strict, type: ['application/json', 'application/*+json'] });
  return forms ? [json, express.urlencoded({ limit, extended: false }), refuseDeepBodies] : [json, refuseDeepBodies];
}

/**
 * A route takes form bodies when it says so, or when it declares no body schema (console forms); a JSON
 * route sent a form gets 415 from validation instead of a form decoded into nonsense members.
 */
function takesForms(spec: RouteSpec): boolean {
  return spec.bodyContentTypes ? spec.bodyContentTypes.includes(FORM) : spec.body === undefined;
}

const refuseDeepBodies: RequestHandler = (req, _res, next) => {
  const problem = bodyProblem(req.body, MAX_BODY_DEPTH);
  if (problem === 'depth')
    return next(httpErrors.badRequest(`the request body nests deeper than ${MAX_BODY_DEPTH} levels`));
  if (problem === 'text') return next(httpErrors.validation(malformedText(req.body, 'body').join('; ')));
  markBodyChecked(req);
  next();
};

const ACCESS = new Set<RouteAccess>(['public', 'key', 'admin']);

export function createApiRouter(
  openapi: OpenApiRegistry,
  access: AccessPolicy,
  cors: CorsPolicy,
  plugin: string,
  defaultBodyLimit: string,
): ApiRouter {
  const raw = express.Router({ caseSensitive: true });
  const defaultParsers = { json: bodyParsers(defaultBodyLimit, false), forms: bodyParsers(defaultBodyLimit, true) };
  const parsersFor = (spec: RouteSpec) => {
    const forms = takesForms(spec);
    // A body schema refuses `null` or `"x"` naming what the route takes ("body must be of type object");
    // the strict parser would call them invalid JSON, which they are not.
    const validated = spec.body !== undefined && spec.validate !== false;
    if (spec.bodyLimit || validated) return bodyParsers(spec.bodyLimit ?? defaultBodyLimit, forms, !validated);
    return forms ? defaultParsers.forms : defaultParsers.json;
  };
  const route =
    (method: HttpMethod): Route =>
    (path, spec, ...handlers) => {
      if (!ACCESS.has(spec?.access)) throw bootErrors.routeAccess(plugin, method.toUpperCase(), path, spec?.access);
      openapi.addRoute(method, path, spec, plugin);
      // A route that streams its body (a proxy, an upload) reads it itself: no parser touches it.
      const parsers = WITH_BODY.has(method) && !spec.rawBody ? parsersFor(spec) : [];
      const validation =
        spec.validate !== false && (spec.params || spec.query || spec.body) ? [validateRequest(spec)] : [];
      // CORS, then access before the body is read: a caller without the right credentials costs no parsing.
      // Text that is not well-formed Unicode is refused on every route, before validation; a body a route parses
      // itself (its own middleware) is checked before the handler that follows.
      const checked =
        handlers.length > 1
          ? handlers.flatMap((handler, i) => (i === 0 ? [handler] : [refuseMalformedText, handler]))
          : handlers;
      raw[method](
        path,
        cors.route(method.toUpperCase(), path, spec.crossOrigin ?? spec.access),
        access.guard(spec.access, spec.scope),
        ...parsers,
        refuseMalformedText,
        ...validation,
        ...checked,
      );
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
    useSignInPage: (path) => {
      access.useSignInPage(path);
      return api;
    },
    withDefaults: (defaults) => routeGroup(api, defaults),
    raw,
  };
  return api;
}
