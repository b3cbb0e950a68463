import test from 'ava';
import { testFolder } from 'vela/testing';
import { call, createSite, searchCall, startConnector, until, waitForRun } from './helpers.js';

test('the first start seeds the sample source into a Sample site with facets; a restart does not seed again', async (t) => {
  const dataDir = testFolder(t, 'connector');
  const vela = await startConnector({ dataDir, config: { runtime: { seed: true } } });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : vela.stop()));
  // The seed runs in the background once the runtime is ready.
  const runs = await until('the sample run to start', async () => {
    const stats = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/sample');
    return stats.status === 200 ? stats : undefined;
  });
  const sources = await call(vela, 'GET', '/api/v2/connector/source');
  t.like(
    sources.body.find((s: any) => s.name === 'sample'),
    { kind: 'jsonl', sites: ['Sample'], locale: 'en_US', origin: 'seed' },
  );
  const run = await waitForRun(vela, 'sample', runs.body[0].id);
  t.like(run, { status: 'COMPLETED', trigger: 'seed', documentCount: 3000, indexed: 3000, errors: 0 });

  const page = await searchCall(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US');
  t.is(page.body.queryContext.count, 3000);
  const facets = page.body.widget.facet.map((f: any) => f.name ?? f.facet?.name ?? f.label?.text);
  t.is(page.body.widget.facet.length, 4, JSON.stringify(facets));
  const found = await searchCall(vela, 'GET', '/api/sn/Sample/search?q=editor&_setlocale=en_US&rows=3');
  t.true(found.body.queryContext.count > 0);
  t.regex(found.body.results.document[0].fields.url, /^https:\/\/packages\.debian\.org\/sid\//);
  await vela.stop();
  stopped = true;

  const again = await startConnector({ dataDir, config: { runtime: { seed: true } } });
  t.teardown(() => again.stop());
  await until('the seed to look at the sample', async () =>
    again.logs.some((l) => l.msg === 'the sample is indexed already') ? true : undefined,
  );
  const after = await call(again, 'GET', '/api/v2/connector/monitoring/indexing/stats/sample');
  t.is(after.body.length, 1, 'no second run');
  t.false(again.logs.some((l) => l.msg === 'indexing the sample source'));
  t.is((await searchCall(again, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US')).body.queryContext.count, 3000);
});

test('with seeding off (--no-seed, and in test runtimes) nothing is seeded', async (t) => {
  const vela = await startConnector();
  t.teardown(() => vela.stop());
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source')).body, []);
  t.is((await searchCall(vela, 'GET', '/api/sn/Sample')).status, 404);
});

test('an existing site named Sample is left alone: no sample source is seeded into it', async (t) => {
  const dataDir = testFolder(t, 'connector');
  const before = await startConnector({ dataDir });
  await createSite(before, 'Sample');
  await before.stop();
  const vela = await startConnector({ dataDir, config: { runtime: { seed: true } } });
  t.teardown(() => vela.stop());
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !vela.logs.some((l) => l.msg.includes('the sample source is not seeded')))
    await new Promise((r) => setTimeout(r, 25));
  t.true(vela.logs.some((l) => l.msg.includes('the sample source is not seeded')));
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source')).body, []);
  t.is((await searchCall(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US')).body.queryContext.count, 0);
});
