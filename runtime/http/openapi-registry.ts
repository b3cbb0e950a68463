import type { RouteAccess } from '../auth/access-policy.js';
import type { JsonSchema } from '../config/schema-validation.js';
import { toOpenApiSchema } from './openapi-schema.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

export interface ResponseSpec {
  description: string;
  schema?: JsonSchema;
  /** Defaults to application/json. */
  contentType?: string;
  /** The same answer in other media types, by the client's Accept (a chat: an event stream, or one JSON answer). */
  otherContent?: Record<string, JsonSchema>;
  /** Headers the answer carries that a client reads (a redirect's Location). */
  headers?: Record<string, { description: string; schema?: JsonSchema }>;
}

/** What a route says about itself: the same schemas validate requests and describe the API. */
export interface RouteSpec {
  /** Who may call it; the runtime enforces it before the body is read, and documents it as the route's security. */
  access: RouteAccess;
  /** For `key` routes: the scope an API key needs (default `admin`, which every other scope falls under). */
  scope?: string;
  /**
   * 'public': pages on the public origins (`cors.origins`) may call this `key` route as they call public routes,
   * with an API token in a header (Key, Authorization: Bearer) and never with credentials: a token a page holds
   * gives nothing away that it would not give from a server, and cookies are not sent.
   */
  crossOrigin?: 'public';
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** Largest body this route takes, e.g. "200mb" (default: the service's bodyLimit). */
  bodyLimit?: string;
  /** Content types accepted for the body (default application/json). */
  bodyContentTypes?: string[];
  /** The handler reads the request body itself, as a stream (a proxy, a multipart upload): no body parser runs. */
  rawBody?: boolean;
  responses?: Partial<Record<number | 'default', ResponseSpec>>;
  /** false: the schemas only describe the route; the handler reads and checks the request itself. */
  validate?: boolean;
  /** Leave this route out of /v3/api-docs (console pages, static files). */
  hidden?: boolean;
}

type OpenApiObject = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'machine-readable error code' },
    message: { type: 'string', description: 'what was wrong and how to fix it' },
  },
};

/** `/api/sn/:id/field/:fieldId` → `/api/sn/{id}/field/{fieldId}`; `/{*rest}` → `/{rest}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath
    .replace(/\{\*(\w+)\}/g, '{$1}')
    .replace(/\*(\w+)/g, '{$1}')
    .replace(/:(\w+)/g, '{$1}');
}

const errorResponse = (description: string): OpenApiObject => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The error answers the runtime itself gives a route, by what the route declares: its validation (400,
 * 415), its access (401, 403), a path naming something (404); `default` covers the rest a handler may throw.
 */
function errorResponsesOf(spec: RouteSpec, hasPathParams: boolean): Array<[string, string]> {
  const errors: Array<[string, string]> = [];
  const validates = spec.validate !== false && !!(spec.params || spec.query || spec.body);
  if (validates) errors.push(['400', 'the request is not valid: the message names the member and the rule']);
  if (spec.body && !spec.rawBody)
    errors.push(
      ['413', 'the request body is larger than the limit'],
      ['415', 'the body is not of a content type this route takes'],
    );
  if (spec.access !== 'public') {
    errors.push(
      ['401', 'no valid credentials were sent'],
      ['403', 'the credentials do not allow this (an API token without the scope, or a missing CSRF token)'],
    );
  }
  if (hasPathParams) errors.push(['404', 'nothing of that name or id exists']);
  errors.push(['default', 'an error: {"error": "<code>", "message": "<text>"}']);
  return errors;
}

function parameters(where: 'path' | 'query', schema: JsonSchema | undefined): OpenApiObject[] {
  if (!schema?.properties) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name),
    description: (s as JsonSchema).description,
    schema: toOpenApiSchema({ ...(s as JsonSchema), description: undefined }),
  }));
}

/** The OpenAPI 3.0 description of one service, filled by the routes its plugins mount. */
export class OpenApiRegistry {
  private readonly paths: Record<string, Record<string, OpenApiObject>> = {};
  private readonly schemas: Record<string, OpenApiObject> = { Error: toOpenApiSchema(errorSchema)! };
  private readonly securitySchemes: Record<string, OpenApiObject> = {};
  private readonly tags = new Map<string, string>();

  constructor(
    private readonly service: string,
    private readonly version: string,
  ) {}

  addRoute(method: HttpMethod, path: string, spec: RouteSpec, plugin: string): void {
    if (spec.hidden) return;
    const key = toOpenApiPath(path);
    const pathParams = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const declared = parameters('path', spec.params);
    const implicit = pathParams
      .filter((p) => !declared.some((d) => d.name === p))
      .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const responses: Record<string, OpenApiObject> = {};
    for (const [status, response] of Object.entries(spec.responses ?? { 200: { description: 'OK' } }) as Array<
      [string, ResponseSpec]
    >) {
      // An error a route names without a schema of its own is the runtime's error shape.
      if (!response.schema && !response.contentType && /^[45]/.test(status)) {
        responses[status] = errorResponse(response.description);
        continue;
      }
      const schema = toOpenApiSchema(response.schema);
      const headers = response.headers
        ? Object.fromEntries(
            Object.entries(response.headers).map(([name, h]) => [
              name,
              { description: h.description, schema: toOpenApiSchema(h.schema ?? { type: 'string' }) },
            ]),
          )
        : undefined;
      const content: Record<string, OpenApiObject> = schema
        ? { [response.contentType ?? 'application/json']: { schema } }
        : {};
      for (const [type, other] of Object.entries(response.otherContent ?? {}))
        content[type] = { schema: toOpenApiSchema(other) };
      responses[status] = {
        description: response.description,
        ...(headers ? { headers } : {}),
        ...(Object.keys(content).length > 0 ? { content } : {}),
      };
    }
    for (const [status, description] of errorResponsesOf(spec, pathParams.length > 0))
      responses[status] ??= errorResponse(description);
    const operation: OpenApiObject = {
      tags: spec.tags ?? [plugin],
      summary: spec.summary,
      description: spec.description,
      operationId: spec.operationId,
      parameters: [...declared, ...implicit, ...parameters('query', spec.query)],
      responses,
    };
    if (spec.body) {
      const schema = toOpenApiSchema(spec.body);
      operation.requestBody = {
        required: true,
        content: Object.fromEntries((spec.bodyContentTypes ?? ['application/json']).map((t) => [t, { schema }])),
      };
    }
    operation.security = this.securityOf(spec.access);
    if (spec.access === 'key') operation['x-token-scope'] = spec.scope ?? 'admin';
    this.paths[key] ??= {};
    this.paths[key][method] = JSON.parse(JSON.stringify(operation)) as OpenApiObject;
  }

  /** The OpenAPI security requirements of an access level, adding the schemes they name. */
  private securityOf(access: RouteAccess): OpenApiObject[] {
    if (access === 'public') return [];
    this.securitySchemes.Basic ??= {
      type: 'http',
      scheme: 'basic',
      description: "the administrator's user name and password",
    };
    if (access === 'admin') return [{ Basic: [] }];
    this.securitySchemes.Key ??= { type: 'apiKey', in: 'header', name: 'Key', description: 'an API token' };
    this.securitySchemes.Bearer ??= {
      type: 'http',
      scheme: 'bearer',
      description: 'an API token, as in the Key header (Authorization: Bearer <token>)',
    };
    return [{ Key: [] }, { Bearer: [] }, { Basic: [] }];
  }

  addSchema(name: string, schema: JsonSchema): void {
    this.schemas[name] = toOpenApiSchema(schema)!;
  }

  addSecurityScheme(name: string, scheme: OpenApiObject): void {
    this.securitySchemes[name] = scheme;
  }

  addTag(name: string, description: string): void {
    this.tags.set(name, description);
  }

  document(): OpenApiObject {
    return {
      openapi: '3.0.3',
      info: { title: `Vela ${this.service} service`, version: this.version },
      tags: [...this.tags].map(([name, description]) => ({ name, description })),
      paths: this.paths,
      components: { schemas: this.schemas, securitySchemes: this.securitySchemes },
    };
  }
}
