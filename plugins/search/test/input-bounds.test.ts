import test, { type ExecutionContext } from 'ava';
import { createTestPostgres, postgresReachable, startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, json, search } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

const item = (attributes: Record<string, unknown>) => ({ locale: 'en_US', siteNames: ['Sample'], attributes });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * NUL (U+0000), which PostgreSQL can neither store nor compare: an import item whose id or type holds it is
 * rejected on its own (the rest of the batch goes in), content keeps it (attributes are stored as escaped
 * JSON), and elsewhere it is a 400 naming the member or wrong credentials, never a 500.
 */
async function checkNul(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  await createSite(vela);
  const batch = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      item({ id: 'x\u0000y', title: 'nul in the id' }),
      item({ id: 'typed', type: 'page\u0000', title: 'nul in the type' }),
      item({ id: 'kept', title: 'nul in the \u0000 content' }),
      item({ id: 'spot\u0000', type: 'TUR_SPOTLIGHT', name: 'n', terms: 'a', content: '[]' }),
    ],
  });
  t.is(batch.status, 200, JSON.stringify(batch.body));
  t.is(batch.body.accepted, 1);
  t.deepEqual(
    batch.body.rejected.map((r: { index: number }) => r.index),
    [0, 1, 3],
  );
  t.regex(batch.body.rejected[0].reason, /attribute "id" must not contain control characters/);
  t.regex(batch.body.rejected[1].reason, /attribute "type" must not contain control characters/);
  const found = await search(vela, 'q=*&_setlocale=en_US&fl=id,title');
  t.deepEqual(
    found.body.results.document.map((d: { fields: Record<string, unknown> }) => d.fields),
    [{ id: 'kept', title: 'nul in the \u0000 content' }],
  );

  const token = await json(vela, 'POST', '/api/dev/token', { title: 'a\u0000b' });
  t.is(token.status, 400);
  t.regex(token.body.message, /^body\.title must not contain the NUL character/);
  const site = await json(vela, 'POST', '/api/sn', { name: 'Tab\tsite' });
  t.is(site.status, 400, 'a control character in a name');
  t.regex(site.body.message, /body\.name must not contain control characters, found U\+0009/);
  for (const path of ['/api/sn', '/api/login']) {
    t.is((await json(vela, 'GET', path, undefined, { authorization: basic('ad\u0000min', 'x') })).status, 401, `Basic with NUL on ${path}`);
  }
}

test('NUL in imports, names and credentials is refused per item or as a 400, never a 500 (SQLite)', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await checkNul(t, vela);
});

pgTest('the same on PostgreSQL, which cannot hold NUL', async (t) => {
  const pg = await createTestPostgres();
  if (!pg) return t.fail('PostgreSQL refused to create a test database');
  t.teardown(() => pg.drop());
  const vela = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await checkNul(t, vela);
});
