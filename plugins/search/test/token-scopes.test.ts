import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite } from './fixtures.js';

let vela: TestRuntime;

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search', 'connector'] });
  await createSite(vela);
});
test.after.always(() => vela?.stop());

const call = async (service: string, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const res = await vela.fetch(service, path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const asAdmin = (method: string, path: string, body?: unknown) =>
  call('search', method, path, { authorization: vela.adminAuth }, body);
const token = async (scopes?: string[]) =>
  (
    await asAdmin('POST', '/api/dev/token', {
      title: `t-${scopes?.join('-') ?? 'default'}`,
      ...(scopes ? { scopes } : {}),
    })
  ).body;

const importBody = {
  turingDocuments: [{ locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'scoped-1', title: 'scoped' } }],
};

test('a token made without scopes has the least privilege, search, as one made in the console; admin must be asked for', async (t) => {
  const plain = await token();
  t.deepEqual(plain.scopes, ['search']);
  t.is((await call('search', 'GET', '/api/sn', { key: plain.token })).status, 200, 'it reads');
  const write = await call('search', 'POST', '/api/sn', { key: plain.token }, { name: 'Made by plain' });
  t.is(write.status, 403);
  t.is(write.body.error, 'insufficient_scope');
  t.is((await call('search', 'POST', '/api/sn/import', { key: plain.token }, importBody)).status, 403);
  t.is((await call('connector', 'GET', '/api/v2/connector/source', { key: plain.token })).status, 403);

  const full = await token(['admin']);
  t.deepEqual(full.scopes, ['admin']);
  t.is((await call('search', 'POST', '/api/sn', { key: full.token }, { name: 'Made by full' })).status, 201);
  // The API description says the same default the route applies.
  const spec = (await call('search', 'GET', '/v3/api-docs', {})).body;
  const schema = spec.paths['/api/dev/token'].post.requestBody.content['application/json'].schema;
  t.deepEqual(schema.properties.scopes.default, ['search']);
});

test('each scope opens its routes and no others: search reads, import writes documents, connector the connector API', async (t) => {
  const reader = (await token(['search'])).token as string;
  const importer = (await token(['import'])).token as string;
  const connector = (await token(['connector'])).token as string;

  t.is((await call('search', 'GET', '/api/sn', { key: reader })).status, 200);
  t.is((await call('search', 'GET', '/api/sn/Sample/field', { key: reader })).status, 200);
  const write = await call('search', 'PUT', '/api/sn/Sample', { key: reader }, { description: 'changed' });
  t.is(write.status, 403);
  t.is(write.body.error, 'insufficient_scope');
  t.is((await call('search', 'POST', '/api/sn/import', { key: reader }, importBody)).status, 403);
  t.is(
    (await call('search', 'GET', '/api/dev/token', { key: reader })).status,
    403,
    'tokens are managed with admin only',
  );

  t.is((await call('search', 'POST', '/api/sn/import?wait=true', { key: importer }, importBody)).status, 200);
  t.is((await call('search', 'GET', '/api/sn', { key: importer })).status, 403);

  t.is((await call('connector', 'GET', '/api/v2/connector/source', { key: connector })).status, 200);
  t.is((await call('connector', 'GET', '/api/v2/connector/source', { key: reader })).status, 403);
  t.is((await call('search', 'GET', '/api/sn', { key: connector })).status, 403);

  t.is(
    (await call('search', 'GET', '/api/sn/Sample/search?q=scoped&_setlocale=en_US', {})).body.queryContext.count,
    1,
    'search itself stays public',
  );
});

test("narrowing a token's scopes takes effect at once, and a restricted token cannot raise its own", async (t) => {
  const created = await token(['admin']);
  t.is((await call('search', 'POST', '/api/sn', { key: created.token }, { name: 'Before narrowing' })).status, 201);
  const narrowed = await asAdmin('PUT', `/api/dev/token/${created.id}`, { scopes: ['search'] });
  t.deepEqual(narrowed.body.scopes, ['search']);
  t.is((await call('search', 'POST', '/api/sn', { key: created.token }, { name: 'After narrowing' })).status, 403);
  t.is(
    (await call('search', 'PUT', `/api/dev/token/${created.id}`, { key: created.token }, { scopes: ['admin'] })).status,
    403,
  );
  t.is((await asAdmin('POST', '/api/dev/token', { title: 'bad', scopes: ['root'] })).status, 400);
});
