import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import {
  eventually,
  postgresReachable,
  startTestRuntime,
  type TestRuntime,
  type TestRuntimeOptions,
  testDatabase,
} from 'vela/testing';
import { json } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

/** Two runtimes on one database (one SQLite folder, or one PostgreSQL database), as two processes would be. */
async function pair(t: ExecutionContext, options: TestRuntimeOptions): Promise<[TestRuntime, TestRuntime]> {
  const config = { plugins: { search: { indexer: { pollMs: 100 } } } };
  const a = await startTestRuntime({ plugins: ['search'], config, ...options });
  const b = await startTestRuntime({ plugins: ['search'], config, ...options });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  return [a, b];
}

async function sqlitePair(t: ExecutionContext): Promise<[TestRuntime, TestRuntime]> {
  return pair(t, { dataDir: mkdtempSync(path.join(os.tmpdir(), 'vela-race-')) });
}

async function postgresPair(t: ExecutionContext): Promise<[TestRuntime, TestRuntime]> {
  return pair(t, { databaseUrl: (await testDatabase(t)).url });
}

const statuses = (answers: Array<{ status: number }>) => answers.map((a) => a.status).sort();

/** Six creations at once, spread over both runtimes: one wins, the others answer 409 with `code`. */
async function assertOneWins(
  t: ExecutionContext,
  answers: Array<{ status: number; body: any }>,
  code: string,
): Promise<void> {
  t.deepEqual(statuses(answers), [201, 409, 409, 409, 409, 409], JSON.stringify(answers.map((a) => a.body)));
  for (const answer of answers.filter((a) => a.status === 409)) t.is(answer.body.error, code);
}

async function raceSites(t: ExecutionContext, [a, b]: [TestRuntime, TestRuntime]): Promise<void> {
  const names = ['Race', 'Race', 'Race', 'race', 'RACE', 'Race'];
  await assertOneWins(
    t,
    await Promise.all(
      names.map((name, i) => json(i % 2 ? b : a, 'POST', '/api/sn', { name, fields: [{ name: 'id' }] })),
    ),
    'site_exists',
  );
  const id = 'c0ffee00-0000-4000-8000-000000000001';
  await assertOneWins(
    t,
    await Promise.all(names.map((_, i) => json(i % 2 ? b : a, 'POST', '/api/sn', { id, name: `Same Id ${i}` }))),
    'site_exists',
  );
  // The sites both runtimes know: the winner of each race only (a winner on the other runtime shows here once
  // this one has seen the change, at its next poll on SQLite).
  for (const vela of [a, b]) {
    const names = async () =>
      (await json(vela, 'GET', '/api/sn')).body.map((s: any) => s.name.toLowerCase()) as string[];
    await eventually(
      async () => (await names()).some((n) => n.startsWith('same id')) && (await names()).includes('race'),
      'both winners listed',
    );
    const listed = await names();
    t.is(listed.filter((n) => n === 'race').length, 1);
    t.is(listed.filter((n) => n.startsWith('same id')).length, 1);
  }
}

async function raceFieldsAndLocales(t: ExecutionContext, [a, b]: [TestRuntime, TestRuntime]): Promise<void> {
  await json(a, 'POST', '/api/sn', { id: 'fields-site', name: 'Fields', fields: [{ name: 'id' }] });
  await eventually(
    async () => (await json(b, 'GET', '/api/sn/fields-site')).status === 200,
    'the second runtime seeing the site',
  );
  const field = Array.from({ length: 6 }, (_, i) =>
    json(i % 2 ? b : a, 'POST', '/api/sn/fields-site/field', { name: 'tag' }),
  );
  const locale = Array.from({ length: 6 }, (_, i) =>
    json(i % 2 ? b : a, 'POST', '/api/sn/fields-site/locale', { locale: 'de_DE' }),
  );
  const [fields, locales] = await Promise.all([Promise.all(field), Promise.all(locale)]);
  await assertOneWins(t, fields, 'field_exists');
  await assertOneWins(t, locales, 'locale_exists');
}

test('six creations of one site name at once (names ignore case), over two runtimes on one SQLite file: one 201, five 409', async (t) => {
  await raceSites(t, await sqlitePair(t));
});

pgTest(
  'six creations of one site name at once, over two runtimes on one PostgreSQL database: one 201, five 409',
  async (t) => {
    await raceSites(t, await postgresPair(t));
  },
);

/** Ids and names past their bounds, or shaped as paths, are refused with a 400 naming the member. */
async function refuseBadIds(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  const refused = async (method: string, url: string, body: unknown, member: RegExp) => {
    const r = await json(vela, method, url, body);
    t.is(r.status, 400, `${method} ${url.slice(0, 80)}: ${JSON.stringify(r.body).slice(0, 300)}`);
    t.is(r.body.error, 'validation_failed');
    t.regex(r.body.message, member);
  };
  await refused('POST', '/api/sn', { id: 'x'.repeat(37), name: 'Long Id' }, /^body\.id /);
  await refused('POST', '/api/sn', { id: 'x'.repeat(100_000), name: 'Huge Id' }, /^body\.id /);
  await refused('POST', '/api/sn', { id: '../../x/y', name: 'Path Id' }, /^body\.id /);
  await refused('POST', '/api/sn', { name: 'n'.repeat(101) }, /^body\.name /);
  await refused(
    'POST',
    '/api/sn',
    { name: 'Fields Inside', fields: [{ id: 'f'.repeat(37), name: 'id' }] },
    /^body\.fields\[0\]\.id /,
  );
  // At their bounds they are stored (on PostgreSQL too, whose columns hold 36 and 100 characters).
  const site = await json(vela, 'POST', '/api/sn', {
    id: 'i'.repeat(36),
    name: 'N'.repeat(100),
    fields: [{ id: 'f'.repeat(36), name: 'x'.repeat(100) }],
  });
  t.is(site.status, 201, JSON.stringify(site.body));
  await refused('POST', `/api/sn/${'i'.repeat(36)}/field`, { id: 'g'.repeat(37), name: 'other' }, /^body\.id /);
  await refused('POST', `/api/sn/${'i'.repeat(36)}/field`, { name: 'y'.repeat(101) }, /^body\.name /);
  await refused('PUT', `/api/sn/${'i'.repeat(36)}/field/${'x'.repeat(100)}`, { name: 'z'.repeat(101) }, /^body\.name /);
  await refused('PUT', `/api/sn/${'i'.repeat(36)}`, { name: '../etc' }, /^body\.name /);
  // Path parameters: a site, a field, a locale, a token.
  await refused('GET', `/api/sn/${'s'.repeat(101)}`, undefined, /^path\.id /);
  await refused('GET', `/api/sn/${encodeURIComponent('../x')}/field`, undefined, /^path\.snSiteId /);
  await refused('GET', `/api/sn/${'i'.repeat(36)}/field/${'f'.repeat(101)}`, undefined, /^path\.id /);
  await refused('DELETE', `/api/sn/${'i'.repeat(36)}/locale/${'l'.repeat(50)}`, undefined, /^path\.locale /);
  await refused('GET', `/api/dev/token/${'t'.repeat(37)}`, undefined, /^path\.id /);
  await refused('PUT', `/api/dev/token/${'t'.repeat(37)}`, { title: 'x' }, /^path\.id /);
  await refused('POST', `/api/sn/${'s'.repeat(101)}/search`, { query: '*', locale: 'en_US' }, /^path\.siteName /);
  // Nothing of the refused requests was stored.
  const names = (await json(vela, 'GET', '/api/sn')).body.map((s: any) => s.name);
  t.deepEqual(names, ['N'.repeat(100)]);
}

test('ids and names are bounded and shaped on SQLite', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await refuseBadIds(t, vela);
});

pgTest('ids and names are bounded and shaped on PostgreSQL (never a 500 from a varchar column)', async (t) => {
  const pg = await testDatabase(t);
  const vela = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await refuseBadIds(t, vela);
});

test('concurrent field and locale creation in one site: one 201, five 409 (SQLite)', async (t) => {
  await raceFieldsAndLocales(t, await sqlitePair(t));
});

pgTest('concurrent field and locale creation in one site: one 201, five 409 (PostgreSQL)', async (t) => {
  await raceFieldsAndLocales(t, await postgresPair(t));
});
