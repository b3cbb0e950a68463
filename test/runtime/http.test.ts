import net from 'node:net';
import test from 'ava';
import { manifest, startTestRuntime, type TestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

let vela: TestRuntime;

test.before(async () => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('api'),
      files: {
        'index.ts': `
      export default { register(ctx) {
        ctx.routes((r) => {
          r.get('/api/things', {
            access: 'public',
            summary: 'List things',
            query: { type: 'object', additionalProperties: false, properties: {
              rows: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
              exact: { type: 'boolean' },
              'fq[]': { type: 'array', items: { type: 'string' } },
            } },
          }, (req, res) => res.json(req.query));
          r.post('/api/things/:id', {
            access: 'public',
            params: { type: 'object', properties: { id: { type: 'integer' } } },
            body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1 } } },
            responses: { 201: { description: 'created' } },
          }, (req, res) => res.status(201).json({ id: req.params.id, ...req.body }));
          r.get('/api/crash', { access: 'public' }, () => { throw new Error('secret internals at /srv/db'); });
          r.get('/api/async-crash', { access: 'public' }, async () => { throw new Error('async internals'); });
          r.get('/api/conflict', { access: 'public' }, () => { const e = new Error('that name is taken'); e.status = 409; throw e; });
        });
        ctx.health('flaky', () => ({ status: 'DOWN', message: 'upstream unreachable' }));
        ctx.health('slow', () => new Promise(() => {}), 200);
      } };`,
      },
    },
  ]);
  vela = await startTestRuntime({
    loaderPath: [loaderPath],
    config: { services: { search: { bodyLimit: '1kb', cors: { origins: ['https://app.example'] } } } },
  });
});

test.after.always(() => vela?.stop());

const json = async (r: Response) => ({ status: r.status, body: await r.json() });

test('query strings are converted to the schema types, with defaults', async (t) => {
  t.deepEqual(await json(await vela.fetch('search', '/api/things?rows=5&exact=true&fq[]=a&fq[]=b')), {
    status: 200,
    body: { rows: 5, exact: true, 'fq[]': ['a', 'b'] },
  });
  t.deepEqual((await json(await vela.fetch('search', '/api/things'))).body, { rows: 10 });
});

test('a bad query parameter is a 400 naming it', async (t) => {
  t.deepEqual(await json(await vela.fetch('search', '/api/things?rows=ten')), {
    status: 400,
    body: { error: 'validation_failed', message: 'query.rows must be of type integer, got "ten"' },
  });
  t.deepEqual(await json(await vela.fetch('search', '/api/things?rows=0')), {
    status: 400,
    body: { error: 'validation_failed', message: 'query.rows must be at least 1, got 0' },
  });
  t.is((await vela.fetch('search', '/api/things?bogus=1')).status, 400);
});

test('bodies and path parameters are validated by their schemas', async (t) => {
  const post = (path: string, body: string, type = 'application/json') =>
    vela.fetch('search', path, { method: 'POST', body, headers: { 'content-type': type } });
  t.deepEqual(await json(await post('/api/things/7', '{"name":"lamp"}')), {
    status: 201,
    body: { id: 7, name: 'lamp' },
  });
  t.deepEqual(await json(await post('/api/things/7', '{}')), {
    status: 400,
    body: { error: 'validation_failed', message: 'body.name is required' },
  });
  t.deepEqual(await json(await post('/api/things/x', '{"name":"lamp"}')), {
    status: 400,
    body: { error: 'validation_failed', message: 'path.id must be of type integer, got "x"' },
  });
  const malformed = await json(await post('/api/things/7', '{"name":'));
  t.is(malformed.status, 400);
  t.is((malformed.body as { error: string }).error, 'invalid_json');
  t.deepEqual(await json(await post('/api/things/7', 'name=lamp', 'text/plain')), {
    status: 415,
    body: {
      error: 'unsupported_media_type',
      message: 'send the request body as application/json, got Content-Type "text/plain"',
    },
  });
});

test('members named like Object.prototype members are refused as unknown, not ignored', async (t) => {
  const post = (body: string) =>
    vela.fetch('search', '/api/things/7', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  for (const member of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const r = await json(await post(`{"name":"lamp","${member}":{"x":1}}`));
    t.is(r.status, 400, member);
    t.regex((r.body as { message: string }).message, new RegExp(`body\\.${member} is not a known member`), member);
  }
  t.is((await vela.fetch('search', '/api/things?constructor=1')).status, 400);
});

test('a form sent to a JSON route is a 415; a body nested too deep is a 400, never a crash', async (t) => {
  const post = (body: string, type: string) =>
    vela.fetch('search', '/api/things/7', { method: 'POST', body, headers: { 'content-type': type } });
  t.deepEqual(await json(await post('{"name":"lamp"}', 'application/x-www-form-urlencoded')), {
    status: 415,
    body: {
      error: 'unsupported_media_type',
      message: 'send the request body as application/json, got Content-Type "application/x-www-form-urlencoded"',
    },
  });
  const deep = `{"name":${'['.repeat(200)}${']'.repeat(200)}}`;
  t.deepEqual(await json(await post(deep, 'application/json')), {
    status: 400,
    body: { error: 'bad_request', message: 'the request body nests deeper than 64 levels' },
  });
  t.is((await vela.fetch('search', '/api/things')).status, 200, 'the service still answers');
});

test('headers past the limit, CONNECT and malformed HTTP are answered in the JSON error shape', async (t) => {
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(vela.url('search')).port), '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  const big = await raw(`GET /api/things HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(70 * 1024)}\r\n\r\n`);
  t.regex(big, /^HTTP\/1\.1 431 /);
  t.regex(big, /"error":"headers_too_large"/);
  const connect = await raw('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
  t.regex(connect, /^HTTP\/1\.1 405 /);
  t.regex(connect, /"error":"method_not_allowed"/);
  const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
  t.regex(garbage, /^HTTP\/1\.1 400 /);
  t.regex(garbage, /\{"error":"bad_request","message":"[^"]+"\}$/);
  const long = await vela.fetch(
    'search',
    `/api/things?${Array.from({ length: 800 }, (_, i) => `fq[]=field${i}:value`).join('&')}`,
  );
  t.is(long.status, 200, 'a 20 KB query string is still taken');
});

test('a body over the service limit is a 413', async (t) => {
  const response = await vela.fetch('search', '/api/things/1', {
    method: 'POST',
    body: JSON.stringify({ name: 'x'.repeat(5000) }),
    headers: { 'content-type': 'application/json' },
  });
  t.deepEqual(await json(response), {
    status: 413,
    body: { error: 'payload_too_large', message: 'request body is larger than the limit of 1024 bytes' },
  });
});

test('a handler that throws answers 500 in the one error shape, with no internals', async (t) => {
  for (const path of ['/api/crash', '/api/async-crash']) {
    const response = await vela.fetch('search', path);
    const text = await response.text();
    t.is(response.status, 500);
    t.deepEqual(JSON.parse(text), {
      error: 'internal_error',
      message: 'the server failed to answer this request; the cause is in its log',
    });
    t.false(text.includes('internals'));
  }
  t.true(
    vela.logs.some((l) => l.level === 50 && JSON.stringify(l).includes('secret internals')),
    'the cause is logged',
  );
  t.deepEqual(await json(await vela.fetch('search', '/api/conflict')), {
    status: 409,
    body: { error: 'conflict', message: 'that name is taken' },
  });
});

test('routes match the path exactly, letter case included', async (t) => {
  t.is((await vela.fetch('search', '/api/things')).status, 200);
  for (const path of ['/API/things', '/api/Things', '/HEALTH'])
    t.is((await vela.fetch('search', path)).status, 404, path);
});

test('unknown routes and methods answer 404 JSON', async (t) => {
  t.deepEqual(await json(await vela.fetch('search', '/nowhere')), {
    status: 404,
    body: { error: 'not_found', message: 'no route for GET /nowhere on the search service' },
  });
  t.is((await vela.fetch('search', '/api/things', { method: 'DELETE' })).status, 404);
});

test('the OpenAPI description is built from the same schemas', async (t) => {
  const doc = (await (await vela.fetch('search', '/v3/api-docs')).json()) as any;
  t.is(doc.openapi, '3.0.3');
  const list = doc.paths['/api/things'].get;
  t.is(list.summary, 'List things');
  t.deepEqual(
    list.parameters.find((p: any) => p.name === 'rows'),
    { name: 'rows', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
  );
  const create = doc.paths['/api/things/{id}'].post;
  t.deepEqual(create.parameters[0], { name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
  t.deepEqual(create.requestBody.content['application/json'].schema.required, ['name']);
  t.truthy(create.responses['201']);
  t.deepEqual(doc.components.schemas.Error.required, ['error', 'message']);
});

test('CORS answers preflights for allowed origins only', async (t) => {
  const preflight = await vela.fetch('search', '/api/things', {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), 'https://app.example');
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Key/);
  const other = await vela.fetch('search', '/api/things', { headers: { origin: 'https://evil.example' } });
  t.is(other.headers.get('access-control-allow-origin'), null);
});

test("GET /health lists each plugin's checks and answers 503 when one is down or slow", async (t) => {
  const response = await vela.fetch('search', '/health');
  t.is(response.status, 503);
  const body = (await response.json()) as any;
  t.is(body.status, 'DOWN');
  const checks = Object.fromEntries(body.plugins.api.checks.map((c: any) => [c.name, [c.status, c.message]]));
  t.deepEqual(checks, { flaky: ['DOWN', 'upstream unreachable'], slow: ['DOWN', 'no answer within 200 ms'] });
});
