import test from 'ava';
import type { Changes } from 'vela/plugin';
import { postgresProxy, postgresReachable, startTestRuntime, testDatabase } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;
const RECOVERY_BOUND_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

pgTest(
  'PostgreSQL briefly unreachable: searches go on from memory, imports answer 503, and everything recovers without a restart',
  async (t) => {
    t.timeout(120_000);
    const pg = await testDatabase(t);
    const proxy = await postgresProxy(t);
    const vela = await startTestRuntime({
      plugins: ['search'],
      databaseUrl: proxy.url(pg.url),
      config: { plugins: { search: { indexer: { pollMs: 200 } } } } as never,
    });
    t.teardown(() => vela.stop());
    const changes = vela.runtime.resolve<Changes & { live: boolean }>('changes');
    await changes.ready();

    await createSite(vela);
    // More than the indexer puts into the page cache as it indexes them (a bulk import): page 3 is read from the store.
    const docs = makeDocs(150);
    await importDocs(vela, docs);
    const firstPage = await search(vela, 'q=*&_setlocale=en_US');
    t.is(firstPage.status, 200);
    t.is(firstPage.body.queryContext.count, 150);

    proxy.cut();
    // The index is in memory, and the documents of a page seen before too: the same search is answered.
    const during = await search(vela, 'q=*&_setlocale=en_US');
    t.is(during.status, 200, JSON.stringify(during.body));
    t.deepEqual(during.body.results.document, firstPage.body.results.document);
    // A search without hits needs no stored document either.
    const none = await search(vela, 'q=zzzunknownword&_setlocale=en_US');
    t.is(none.status, 200, JSON.stringify(none.body));
    t.is(none.body.queryContext.count, 0);
    // A page whose documents must be read from the store: 503 with Retry-After, never a 500.
    const unread = await vela.fetch('search', '/api/sn/Sample/search?q=*&p=3&_setlocale=en_US');
    t.is(unread.status, 503);
    t.truthy(unread.headers.get('retry-after'));
    t.is(((await unread.json()) as { error: string }).error, 'service_unavailable');
    // An import is refused, not half-done: the client retries it.
    const extra = makeDocs(155).slice(150);
    const body = {
      turingDocuments: extra.map((attributes) => ({ locale: 'en_US', siteNames: ['Sample'], attributes })),
    };
    const refused = await json(vela, 'POST', '/api/sn/import', body);
    t.is(refused.status, 503, JSON.stringify(refused.body));
    t.is(refused.body.error, 'service_unavailable');
    const health = await vela.fetch('search', '/health');
    t.is(health.status, 503);
    t.is(((await health.json()) as { plugins: { search: { status: string } } }).plugins.search.status, 'DOWN');

    proxy.restore();
    const restoredAt = Date.now();
    // Recovery without a restart: the retried import is accepted, indexed and searchable with everything before it.
    let accepted = await json(vela, 'POST', '/api/sn/import?wait=true', body);
    while (accepted.status === 503 && Date.now() - restoredAt < RECOVERY_BOUND_MS) {
      await sleep(100);
      accepted = await json(vela, 'POST', '/api/sn/import?wait=true', body);
    }
    t.is(accepted.status, 200, JSON.stringify(accepted.body));
    t.is(accepted.body.accepted, 5);
    while (!changes.live && Date.now() - restoredAt < RECOVERY_BOUND_MS) await sleep(50);
    t.true(changes.live, 'the change feed listens again');
    t.log(`recovered in ${Date.now() - restoredAt} ms`);
    const after = await search(vela, 'q=*&_setlocale=en_US');
    t.is(after.body.queryContext.count, 155);
    t.is((await search(vela, 'q=*&p=3&_setlocale=en_US')).status, 200);
    t.is((await vela.fetch('search', '/health')).status, 200);
    // Nothing lost: the store holds every document acknowledged before, during and after the outage.
    const stored = await vela.runtime.db('search_documents').count({ n: '*' }).first();
    t.is(Number(stored?.n), 155);
  },
);
