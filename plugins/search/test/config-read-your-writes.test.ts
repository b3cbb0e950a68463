import test, { type ExecutionContext } from 'ava';
import { type ChildRuntime, childCaller, sharedDatabaseTest, startConfiguredChild, timeUntil } from 'vela/testing';
import { makeDocs, SITE_FIELDS } from './fixtures.js';

const ROUNDS = 15;
// A connection per request: the workers of one port take new connections in turn.
const call = childCaller('search', { connection: 'close' });

/** Documents that carry col0..col14 before any of them is a field: red on half of them (20). */
function colouredDocs() {
  return makeDocs(40, 5).map((d, i) => ({
    ...d,
    ...Object.fromEntries(Array.from({ length: ROUNDS }, (_, n) => [`col${n}`, (i + n) % 2 === 0 ? 'red' : 'blue'])),
  }));
}

/** A site with those documents, and the answers to "filter on colN" right after colN became a facet, each round. */
async function addFieldsAndFilter(
  t: ExecutionContext,
  writer: ChildRuntime,
  reader: ChildRuntime,
  readsPerRound: number,
): Promise<string[]> {
  const created = await call(writer, 'POST', '/api/sn', { name: 'Prop', fields: SITE_FIELDS, locales: ['en_US'] });
  t.is(created.status, 201, JSON.stringify(created.body));
  const imported = await call(writer, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: colouredDocs().map((attributes) => ({ locale: 'en_US', siteNames: ['Prop'], attributes })),
  });
  t.is(imported.status, 200, JSON.stringify(imported.body));
  const all = async () =>
    (await call(reader, 'GET', '/api/sn/Prop/search?q=*&rows=0', undefined, {})).body.queryContext?.count === 40;
  // Every reader holds the documents (two in a row: each worker of a port, in turn).
  await timeUntil(async () => (await all()) && (await all()), 'the other process holding the documents', 30_000, 10);

  const answers: string[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const field = await call(writer, 'POST', '/api/sn/Prop/field', { name: `col${n}`, facet: true });
    t.is(field.status, 201, JSON.stringify(field.body));
    for (let read = 0; read < readsPerRound; read++) {
      const found = await call(reader, 'GET', `/api/sn/Prop/search?q=*&rows=0&fq[]=col${n}:red`, undefined, {});
      answers.push(
        found.status === 200 ? `200:${found.body.queryContext.count}` : `${found.status}:${JSON.stringify(found.body)}`,
      );
    }
  }
  return answers;
}

/**
 * Two processes on one PostgreSQL, the polls set far out: a field made facet on A is filtered on B right after
 * A acknowledged it. B has not had the notice yet (it learns of the field when its search meets it), or has it
 * and is rebuilding its engine for it (the search waits for the rebuild): either way the answer is A's.
 */
for (const engine of ['memory', 'postgres']) {
  sharedDatabaseTest(
    test,
    `engine ${engine}: a field added on one process is searchable on the other as soon as the write returns`,
    {
      config: { plugins: { search: { engine, indexer: { pollMs: 600_000 } } } },
      // The postgres engine is the search-postgres plugin's.
      args: ['--plugins', engine === 'postgres' ? 'search,search-postgres' : 'search'],
      timeoutMs: 240_000,
    },
    async (t, a, b) => {
      const answers = await addFieldsAndFilter(t, a, b, 1);
      // Every answer is B's search with the new field, the 20 red documents (none a 400 for a field B had not
      // heard of yet, none a 500 from an engine not yet rebuilt for it).
      t.deepEqual(answers, Array(ROUNDS).fill('200:20'));
      // The facet B now offers is the new field's too.
      const facets = await call(b, 'GET', `/api/sn/Prop/search?q=*&rows=0`, undefined, {});
      t.true(
        facets.body.widget.facet.some((f: { name: string }) => f.name === `col${ROUNDS - 1}`),
        JSON.stringify(facets.body.widget.facet.map((f: { name: string }) => f.name)),
      );
    },
  );
}

test('--workers 2 on one SQLite file: a field added through one worker is searchable through the other at once', async (t) => {
  t.timeout(240_000);
  const vela = await startConfiguredChild({}, ['--workers', '2', '--plugins', 'search']);
  t.teardown(() => vela.stop());
  await timeUntil(() => vela.output().includes('"all workers ready"'), 'both workers serving', 120_000, 50);
  // Two reads after each write, on connections of their own: the port hands them to each worker in turn, so
  // one of them is the worker that did not write.
  const answers = await addFieldsAndFilter(t, vela, vela, 2);
  t.deepEqual(answers, Array(ROUNDS * 2).fill('200:20'));
});
