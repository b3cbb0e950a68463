import test, { type ExecutionContext } from 'ava';
import { onBothDatabases, postgresReachable, rawRequest, type TestRuntime, testDatabase } from 'vela/testing';
import {
  type Answer,
  call,
  createSite,
  createSource,
  KEY,
  makePackages,
  runAndWait,
  startConnector,
  tempJsonl,
} from './helpers.js';

const pgTest = postgresReachable() ? test : test.skip;

/** A request with any method and a raw body (fetch refuses a body on GET; the reindex route takes one). */
async function raw(vela: TestRuntime, method: string, pathname: string, body: string): Promise<Answer> {
  const headers = { key: KEY, 'content-type': 'application/json' };
  const answer = await rawRequest(vela.url('connector'), pathname, { method, headers, body });
  return { status: answer.status, body: JSON.parse(answer.body) };
}

/** A valid cron expression of 231 characters: every minute and hour listed one by one. */
const LONG_CRON = `${Array.from({ length: 60 }, (_, i) => i).join(',')} ${Array.from({ length: 24 }, (_, i) => i).join(',')} * * *`;

async function withRecords(vela: TestRuntime): Promise<void> {
  await createSite(vela, 'Docs');
  await createSource(vela, 'pkgs', tempJsonl(makePackages(30)), 'Docs');
  await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
}

function refused(t: ExecutionContext, answer: Answer, what: string, message?: RegExp): void {
  t.is(answer.status, 400, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  t.true(typeof answer.body.error === 'string' && typeof answer.body.message === 'string', what);
  if (message) t.regex(answer.body.message, message, what);
}

/** Every bound of the connector's inputs, as one client would meet them; `vela` has the source pkgs. */
async function checkBounds(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  const search = (body: Record<string, unknown>) =>
    call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', body);
  // A 50,000-character objectId is past SQLite's LIKE pattern limit: refused, never a 500.
  refused(t, await search({ objectId: 'x'.repeat(50_000) }), 'objectId of 50,000', /^body\.objectId /);
  refused(t, await search({ objectId: 'x'.repeat(401) }), 'objectId of 401', /^body\.objectId /);
  const longest = await search({ objectId: 'p'.repeat(400) });
  t.is(longest.status, 200);
  t.is(longest.body.totalElements, 0);
  t.is((await search({ objectId: 'PKG-0000' })).body.totalElements, 10);
  refused(t, await search({ site: 's'.repeat(101) }), 'site', /^body\.site /);
  refused(t, await search({ locale: 'english' }), 'locale', /^body\.locale /);
  refused(t, await search({ source: '../pkgs' }), 'source', /^body\.source /);
  // NUL, which PostgreSQL can neither store nor compare.
  refused(
    t,
    await search({ objectId: 'a\u0000b' }),
    'objectId with NUL',
    /^body\.objectId must not contain the NUL character/,
  );
  refused(t, await search({ site: 'Docs\u0000' }), 'site with NUL', /^body\.site /);
  const nulKey = await call(vela, 'GET', '/api/v2/connector/source', undefined, {
    authorization: `Basic ${Buffer.from('ad\u0000min:x').toString('base64')}`,
  });
  t.is(nulKey.status, 401, 'Basic credentials with NUL are wrong credentials');

  // A body nested 20,000 deep on the reindex route, which parses its own body (GET with a body).
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  for (const method of ['GET', 'POST'])
    refused(
      t,
      await raw(vela, method, '/api/v2/connector/reindex/pkgs', deep),
      `${method} reindex, deep body`,
      /nests deeper/,
    );
  refused(
    t,
    await raw(vela, 'GET', '/api/v2/connector/reindex/pkgs', '[["x"]]'),
    'GET reindex, nested id',
    /^body\[0\] must be a content id/,
  );
  refused(
    t,
    await call(vela, 'GET', `/api/v2/connector/index/pkgs?id=${'i'.repeat(401)}`),
    'index ?id= of 401',
    /^id\[0\] must be a content id/,
  );

  // Source members bounded to their columns (schedule: 200) and shaped as the spec says.
  const source = { name: 'other', kind: 'jsonl', sites: ['Docs'], settings: { path: '/nowhere.jsonl', idField: 'id' } };
  const create = (extra: Record<string, unknown>) =>
    call(vela, 'POST', '/api/v2/connector/source', { ...source, ...extra });
  t.true(LONG_CRON.length > 200);
  refused(t, await create({ schedule: LONG_CRON }), 'schedule', /^body\.schedule /);
  refused(t, await create({ name: 'n'.repeat(101) }), 'source name', /^body\.name /);
  refused(t, await create({ kind: 'K'.repeat(200) }), 'kind', /^body\.kind /);
  refused(t, await create({ sites: ['s'.repeat(101)] }), 'site name', /^body\.sites\[0\] /);
  refused(t, await create({ sites: ['../x'] }), 'site name shaped as a path', /^body\.sites\[0\] /);
  refused(
    t,
    await create({ name: 'other\u0000' }),
    'source name with NUL',
    /body\.name must not contain the NUL character/,
  );
  refused(
    t,
    await create({ description: 'd\u0000' }),
    'description with NUL',
    /^body\.description must not contain the NUL character/,
  );
  t.is((await call(vela, 'GET', '/api/v2/connector/source/other')).status, 404, 'nothing refused was stored');

  // Path parameters: source names and rule ids.
  refused(t, await call(vela, 'GET', `/api/v2/connector/source/${'n'.repeat(101)}`), 'source path', /^path\.name /);
  refused(
    t,
    await call(vela, 'GET', `/api/v2/connector/monitoring/indexing/stats/${'n'.repeat(101)}`),
    'stats path',
    /^path\.source /,
  );
  refused(t, await call(vela, 'GET', `/api/v2/connector/indexing-rule/${'r'.repeat(37)}`), 'rule path', /^path\.id /);
  const rule = { name: 'r', source: 'pkgs', attribute: 'section', values: ['web'] };
  refused(
    t,
    await call(vela, 'POST', '/api/v2/connector/indexing-rule', { ...rule, source: 's'.repeat(101) }),
    'rule source',
    /^body\.source /,
  );
  refused(
    t,
    await call(vela, 'POST', '/api/v2/connector/indexing-rule', { ...rule, id: 'i'.repeat(37) }),
    'rule id',
    /^body\.id /,
  );
}

test('connector inputs past their bounds are 400s on SQLite', async (t) => {
  const vela = await startConnector();
  t.teardown(() => vela.stop());
  await withRecords(vela);
  await checkBounds(t, vela);
});

pgTest('connector inputs past their bounds are 400s on PostgreSQL (never a 500 from a varchar column)', async (t) => {
  const pg = await testDatabase(t);
  const vela = await startConnector({ databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await withRecords(vela);
  await checkBounds(t, vela);
});

/** A source whose records include one with a 500-character id: that document is an error, the rest are indexed. */
async function checkLongDocumentId(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  await createSite(vela, 'Ids');
  const records: Array<Record<string, unknown>> = makePackages(5).map((p) => ({ ...p }));
  records.splice(2, 0, { ...makePackages(1, 99)[0], id: `long-${'x'.repeat(495)}` });
  const file = tempJsonl(records, 'ids.jsonl');
  await createSource(vela, 'ids', file, 'Ids');
  const run = await runAndWait(vela, '/api/v2/connector/index/ids/all', 'ids');
  t.like(run, { status: 'COMPLETED', documents: 6, indexed: 5, errors: 1 });
}

onBothDatabases(
  test,
  'a source document whose id is too long to record is an error of that document, not of the run',
  async (t, databaseUrl) => {
    const vela = await startConnector({ databaseUrl });
    t.teardown(() => vela.stop());
    await checkLongDocumentId(t, vela);
  },
);
