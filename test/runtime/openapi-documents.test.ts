import SwaggerParser from '@apidevtools/swagger-parser';
import test from 'ava';
import type { OpenAPI } from 'openapi-types';
import { createSite, importDocs, makeDocs } from '../../plugins/search/test/fixtures.js';
import { type JsonSchema, validateAgainst } from '../../runtime/config/schema-validation.js';
import { toOpenApiPath } from '../../runtime/http/openapi-registry.js';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// Every bundled plugin, so each service's document is the one a user's `npm start` serves.
let vela: TestRuntime;
const SERVICES = ['gateway', 'search', 'connector'] as const;

test.before(async () => {
  vela = await startTestRuntime();
  // A site with documents, so the search answers below have results, facets and pages to describe.
  await createSite(vela);
  await importDocs(vela, makeDocs(25));
});
test.after.always(() => vela?.stop());

/**
 * Routes that are pages or files for a browser, not API operations: they answer HTML, scripts or images,
 * so they are left out of the API description on purpose.
 */
const PAGES: RegExp[] = [
  /^\/$/,
  /^\/console(\/|$)/, // the consoles: pages, their files, sign-in and sign-out forms
  /^\/sn\//, // the sample search page and its files
  /^\/graphql(\/assets\/.*)?$/, // GraphiQL (GET) and its files; POST /graphql is an API route, checked below
  /^\/swagger-ui/, // Swagger UI and its files
  /^\/favicon\.(ico|svg)$/,
];
/** The consoles' sign-in and sign-out are HTML forms, posted by the browser. */
const CONSOLE_FORMS = ['/console/login', '/console/logout'];
const isPage = (method: string, path: string) =>
  (method === 'get' && PAGES.some((page) => page.test(path))) || (method === 'post' && CONSOLE_FORMS.includes(path));

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every method and path the service's express app routes, walking the routers the plugins mounted. */
function routesOf(stack: Layer[], found: Array<[string, string]> = []): Array<[string, string]> {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const method of Object.keys(layer.route.methods)) for (const path of paths) found.push([method, path]);
    } else if (layer.handle?.stack) routesOf(layer.handle.stack, found);
  }
  return found;
}

const appStack = (service: string) =>
  (vela.runtime.services.get(service)!.app as unknown as { router: { stack: Layer[] } }).router.stack;

type Operation = Record<string, unknown>;
interface ServiceDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

async function documentOf(service: string): Promise<ServiceDocument> {
  const res = await vela.fetch(service, '/v3/api-docs');
  return (await res.json()) as never;
}

for (const service of SERVICES) {
  test(`the ${service} service's document is valid OpenAPI 3.0.3`, async (t) => {
    const document = await documentOf(service);
    t.is(document.openapi, '3.0.3');
    // validate() dereferences in place: it gets a copy.
    await t.notThrowsAsync(SwaggerParser.validate(structuredClone(document) as unknown as OpenAPI.Document));
  });

  test(`every API route the ${service} service answers is described, with its answers and errors`, async (t) => {
    const document = await documentOf(service);
    const routes = routesOf(appStack(service)).filter(([method, path]) => method !== 'head' && !isPage(method, path));
    t.true(routes.length > 5, 'the walk found the routes');
    const missing = routes
      .filter(([method, path]) => !document.paths[toOpenApiPath(path)]?.[method])
      .map(([m, p]) => `${m.toUpperCase()} ${p}`);
    t.deepEqual(missing, [], 'routes missing from /v3/api-docs');
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations))
        problems.push(...operationProblems(`${method.toUpperCase()} ${path}`, operation));
    }
    t.deepEqual(problems, [], 'operations whose answers or errors are not described');
  });

  test(`the ${service} service answers as its document says`, async (t) => {
    const document = (await SwaggerParser.dereference(
      structuredClone(await documentOf(service)) as never,
    )) as unknown as ServiceDocument;
    const calls = [...parameterlessGets(document), ...(EXAMPLES[service] ?? [])];
    t.true(calls.length > 3, 'there are answers to check');
    const problems: string[] = [];
    let validated = 0;
    for (const call of calls) {
      const res = await vela.fetch(service, call.path, {
        method: call.method ?? 'GET',
        headers: {
          accept: 'application/json',
          authorization: vela.adminAuth,
          ...(call.body !== undefined ? { 'content-type': call.contentType ?? 'application/json' } : {}),
        },
        body:
          call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body),
        redirect: 'manual',
      });
      const operation = document.paths[call.operation ?? call.path]?.[(call.method ?? 'GET').toLowerCase()];
      const responses = (operation?.responses ?? {}) as Record<string, Response30>;
      const name = `${call.method ?? 'GET'} ${call.path} → ${res.status}`;
      const described = responses[String(res.status)] ?? (res.status >= 400 ? responses.default : undefined);
      if (!described) {
        problems.push(`${name}: the status is not described`);
        continue;
      }
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
      if (type !== 'application/json') continue;
      const schema = described.content?.['application/json']?.schema;
      if (!schema) {
        problems.push(`${name}: answers JSON, which is not described`);
        continue;
      }
      const checked = validateAgainst(asJsonSchema(schema), await res.json(), { root: 'answer' });
      validated++;
      if (!checked.valid) problems.push(`${name}: ${checked.problems.slice(0, 3).join('; ')}`);
    }
    t.deepEqual(problems, [], 'answers that do not match the document');
    t.true(
      validated >= calls.length / 2,
      `${validated} of ${calls.length} answers were JSON checked against their schema`,
    );
  });
}

interface Response30 {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

/**
 * What an operation must say: a success answer with a schema for each media type (a redirect names its
 * Location instead), the runtime's error answers for what it declares (401 when it is secured, 404 when its
 * path names something, 400 when it takes parameters or a body), and `default`; every error with a schema.
 */
function operationProblems(name: string, operation: Operation): string[] {
  const problems: string[] = [];
  const responses = operation.responses as Record<string, Response30>;
  const statuses = Object.keys(responses);
  const successes = statuses.filter((status) => /^2/.test(status));
  const redirects = statuses.filter((status) => /^3/.test(status));
  if (successes.length === 0 && redirects.length === 0) problems.push(`${name}: no success answer`);
  for (const status of successes) {
    const content = responses[status]!.content;
    if (status !== '204' && (!content || Object.keys(content).length === 0))
      problems.push(`${name} ${status}: no content schema`);
  }
  for (const status of redirects)
    if (!responses[status]!.headers?.Location) problems.push(`${name} ${status}: no Location header`);
  for (const [status, response] of Object.entries(responses)) {
    for (const [type, media] of Object.entries(response.content ?? {}))
      if (!media.schema) problems.push(`${name} ${status} ${type}: no schema`);
    if ((status === 'default' || /^[45]/.test(status)) && !response.content?.['application/json']?.schema)
      problems.push(`${name} ${status}: no error schema`);
  }
  const parameters = (operation.parameters as Array<{ in: string }> | undefined) ?? [];
  if (!responses.default) problems.push(`${name}: no default (error) answer`);
  if ((operation.security as unknown[]).length > 0 && !responses['401']) problems.push(`${name}: secured, no 401`);
  if (parameters.some((p) => p.in === 'path') && !responses['404'])
    problems.push(`${name}: names something in its path, no 404`);
  if ((operation.requestBody || parameters.some((p) => p.in === 'query')) && !statuses.some((s) => /^4/.test(s)))
    problems.push(`${name}: takes input, no 4xx for bad input`);
  return problems;
}

interface Call {
  path: string;
  method?: string;
  /** Sent as JSON, or as it is when a string. */
  body?: unknown;
  contentType?: string;
  /** The document's path, when `path` fills its parameters. */
  operation?: string;
}

/** Every GET whose path names nothing, called as the administrator. */
function parameterlessGets(document: ServiceDocument): Call[] {
  return Object.entries(document.paths)
    .filter(([path, operations]) => operations.get && !path.includes('{'))
    .map(([path]) => ({ path }));
}

/** Answers with parameters worth checking: the search response above all, the largest schema. */
const EXAMPLES: Partial<Record<(typeof SERVICES)[number], Call[]>> = {
  search: [
    { path: '/api/sn/Sample/search?q=*&_setlocale=en_US&rows=5', operation: '/api/sn/{siteName}/search' },
    { path: '/api/sn/Sample/search?q=*&_setlocale=en_US&rows=5&group=type', operation: '/api/sn/{siteName}/search' },
    {
      path: '/api/sn/Sample/search?q=*',
      method: 'POST',
      body: { fq: ['type:news'], rows: 3 },
      operation: '/api/sn/{siteName}/search',
    },
    { path: '/api/v2/guest/sn/Sample/search?q=*', operation: '/api/v2/guest/sn/{siteName}/search' },
    { path: '/api/sn/Nowhere/search?q=*', operation: '/api/sn/{siteName}/search' },
    { path: '/api/sn/Sample', operation: '/api/sn/{id}' },
    { path: '/api/sn/Sample/field', operation: '/api/sn/{snSiteId}/field' },
    { path: '/api/sn/Sample/locale', operation: '/api/sn/{id}/locale' },
    { path: '/api/sn/Sample/export', operation: '/api/sn/{id}/export' },
    { path: '/api/sn/Sample/monitoring', operation: '/api/sn/{id}/monitoring' },
    { path: '/api/sn/Sample/metrics/live', operation: '/api/sn/{id}/metrics/live' },
    { path: '/api/sn/Sample/chat', operation: '/api/sn/{siteName}/chat' },
    { path: '/api/sn/Sample/chat?q=news', operation: '/api/sn/{siteName}/chat' },
    {
      path: '/api/genai/chat',
      method: 'POST',
      body: { messages: [{ role: 'user', content: 'hello' }], stream: false },
      operation: '/api/genai/chat',
    },
    { path: '/graphql', method: 'POST', body: { query: '{ siteNames }' }, operation: '/graphql' },
    { path: '/graphql', method: 'POST', body: { query: '{ nothing' }, operation: '/graphql' },
    {
      path: '/graphql',
      method: 'POST',
      body: 'query { siteNames }',
      contentType: 'application/graphql',
      operation: '/graphql',
    },
    {
      path: '/api/sn',
      method: 'POST',
      body: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
      operation: '/api/sn',
    },
  ],
  gateway: [{ path: '/api/token', operation: '/api/token' }],
};

/**
 * An OpenAPI 3.0 schema (dereferenced) as the JSON Schema the runtime validates with: `nullable` becomes a
 * `null` member of the type (and of the enum).
 */
function asJsonSchema(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(asJsonSchema) as never;
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example') continue;
    out[key] =
      key === 'enum' || key === 'default'
        ? value
        : key === 'properties'
          ? mapValues(value, asJsonSchema)
          : asJsonSchema(value);
  }
  if ((schema as { nullable?: boolean }).nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    for (const list of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(out[list])) out[list] = [...(out[list] as unknown[]), { type: 'null' }];
  }
  return out as JsonSchema;
}

const mapValues = (value: unknown, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, f(v)]));

test('the runtime routes of every service are described, and pages are not', async (t) => {
  for (const service of SERVICES) {
    const document = await documentOf(service);
    t.truthy(document.paths['/health']?.get, `${service}: /health`);
    t.truthy(document.paths['/v3/api-docs']?.get, `${service}: /v3/api-docs`);
    t.falsy(document.paths['/swagger-ui.html'], `${service}: Swagger UI is a page`);
  }
});
