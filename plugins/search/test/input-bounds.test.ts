import test, { type ExecutionContext } from 'ava';
import { postgresReachable, startTestRuntime, type TestRuntime, testDatabase } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

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
    t.is(
      (await json(vela, 'GET', path, undefined, { authorization: basic('ad\u0000min', 'x') })).status,
      401,
      `Basic with NUL on ${path}`,
    );
  }
}

test('NUL in imports, names and credentials is refused per item or as a 400, never a 500 (SQLite)', async (t) => {
  t.timeout(60_000);
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await checkNul(t, vela);
});

pgTest('the same on PostgreSQL, which cannot hold NUL', async (t) => {
  t.timeout(60_000);
  const pg = await testDatabase(t);
  const vela = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  t.teardown(() => vela.stop());
  await checkNul(t, vela);
});

/** An unauthenticated GET search, as anyone may send it; the answer's size in characters. */
async function anonymousSearch(vela: TestRuntime, query: string): Promise<{ status: number; body: any; size: number }> {
  const res = await fetch(vela.url('search', `/api/sn/Sample/search?q=*&_setlocale=en_US&${query}`));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), size: text.length };
}

const repeat = (name: string, count: number, value: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => `${name}=${value(i)}`).join('&');

test('a search query string is held to the POST body bounds: 100 values per filter list, 2000 characters per value and query, and a bounded link', async (t) => {
  t.timeout(60_000);
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await createSite(vela);
  await importDocs(vela, makeDocs(50));
  const refused = async (query: string, message: RegExp, what: string) => {
    const r = await anonymousSearch(vela, query);
    t.is(r.status, 400, what);
    t.is(r.body.error, 'invalid_parameter', what);
    t.regex(r.body.message, message, what);
    t.true(r.size < 400, `${what}: the refusal does not echo the request (${r.size} characters)`);
  };

  t.is(
    (
      await anonymousSearch(
        vela,
        repeat('fq[]', 100, (i) => `section:S${i}`),
      )
    ).status,
    200,
    '100 filters are taken',
  );
  await refused(
    repeat('fq[]', 101, (i) => `section:S${i}`),
    /^fq\[\] takes at most 100 values, got 101$/,
    '101 fq[]',
  );
  await refused(
    repeat('fq[]', 3000, (i) => `section:S${i}`),
    /^fq\[\] takes at most 100 values, got 3000$/,
    '3000 fq[]',
  );
  // The spellings of one list count together.
  await refused(
    `${repeat('fq.and[]', 60, (i) => `section:S${i}`)}&${repeat('fqAnd', 41, (i) => `arch:A${i}`)}`,
    /^fqAnd takes at most 100/,
    'fq.and[] and fqAnd',
  );
  await refused(
    repeat('fq.or[]', 101, (i) => `tags:T${i}`),
    /^fqOr takes at most 100/,
    '101 fq.or[]',
  );
  await refused(
    repeat('tr[]', 101, (i) => `section:S${i}`),
    /^targetingRules takes at most 100/,
    '101 tr[]',
  );
  await refused(
    `fl=${Array.from({ length: 101 }, (_, i) => `f${i}`).join(',')}`,
    /^fl takes at most 100 values, got 101$/,
    '101 field names',
  );
  await refused(
    `fq[]=section:${'x'.repeat(1993)}`,
    /^fq\[\] must be at most 2000 characters long, got 2001 characters$/,
    'a filter of 2001 characters',
  );
  const longQ = await fetch(vela.url('search', `/api/sn/Sample/search?q=${'a'.repeat(2001)}&_setlocale=en_US`));
  t.deepEqual(await longQ.json(), {
    error: 'invalid_parameter',
    message: 'q must be at most 2000 characters long, got 2001 characters',
  });
  t.is(
    (await fetch(vela.url('search', `/api/sn/Sample/search?q=${'a'.repeat(2000)}&_setlocale=en_US`))).status,
    200,
    'a query of 2000 characters is taken',
  );
  await refused(`sort=${'s'.repeat(201)}`, /^sort must be at most 200 characters long/, 'a long sort');
  await refused(
    `fq.op=${'A'.repeat(5000)}`,
    /^fq\.op must be at most 100 characters long/,
    'a long operator, not echoed',
  );

  // Every link of an answer repeats the search's parameters: past 8192 characters of them the search is refused,
  // whether they are filters or parameters the search does not know (which links keep as they were sent).
  await refused(
    repeat('fq[]', 100, (i) => `section:${'x'.repeat(80)}${i}`),
    /^the search's parameters are \d+ characters long written as a link/,
    'long filters',
  );
  await refused(
    repeat('x', 12_000, (i) => String(i % 10)),
    /^the search's parameters are \d+ characters long/,
    '12,000 unknown parameters',
  );
  // The largest search taken answers in proportion to it, not to its square: under a megabyte here.
  const largest = await anonymousSearch(
    vela,
    repeat('fq[]', 100, (i) => `section:${'x'.repeat(60)}${i}`),
  );
  t.is(largest.status, 200);
  t.true(largest.size < 1_000_000, `the answer to an 8 KB search: ${largest.size} characters`);

  // The POST body's bounds were already these; the link bound holds for it too.
  const post = await json(
    vela,
    'POST',
    '/api/sn/Sample/search',
    { query: '*', locale: 'en_US', fq: Array.from({ length: 100 }, (_, i) => `section:${'y'.repeat(1900)}${i}`) },
    { authorization: '' },
  );
  t.is(post.status, 400);
  t.regex(post.body.message, /^the search's parameters are \d+ characters long/);
  const tooMany = await json(
    vela,
    'POST',
    '/api/sn/Sample/search',
    { query: '*', fq: Array.from({ length: 101 }, (_, i) => `section:S${i}`) },
    { authorization: '' },
  );
  t.deepEqual([tooMany.status, tooMany.body.error], [400, 'validation_failed']);
  t.is((await fetch(vela.url('search', '/health'))).status, 200);
});
