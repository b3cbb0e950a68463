import SwaggerParser from '@apidevtools/swagger-parser';
import test from 'ava';
import type { OpenAPI } from 'openapi-types';
import { toOpenApiPath } from '../../runtime/http/openapi-registry.js';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// Every bundled plugin, so each service's document is the one a user's `npm start` serves.
let vela: TestRuntime;
const SERVICES = ['gateway', 'search', 'connector'] as const;

test.before(async () => {
  vela = await startTestRuntime();
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

const appStack = (service: string) => (vela.runtime.services.get(service)!.app as unknown as { router: { stack: Layer[] } }).router.stack;

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
    const missing = routes.filter(([method, path]) => !document.paths[toOpenApiPath(path)]?.[method]).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    t.deepEqual(missing, [], 'routes missing from /v3/api-docs');
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const responses = operation.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
        const name = `${method.toUpperCase()} ${path}`;
        t.true(
          Object.keys(responses).some((status) => /^[23]/.test(status)),
          `${name} describes its success answer`,
        );
        t.truthy(responses.default, `${name} describes its error answer`);
        if ((operation.security as unknown[]).length > 0) t.truthy(responses['401'], `${name} describes 401`);
        for (const [status, response] of Object.entries(responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) t.truthy(media.schema, `${name} ${status} ${type} has a schema`);
        }
      }
    }
  });
}

test('the runtime routes of every service are described, and pages are not', async (t) => {
  for (const service of SERVICES) {
    const document = await documentOf(service);
    t.truthy(document.paths['/health']?.get, `${service}: /health`);
    t.truthy(document.paths['/v3/api-docs']?.get, `${service}: /v3/api-docs`);
    t.falsy(document.paths['/swagger-ui.html'], `${service}: Swagger UI is a page`);
  }
});
