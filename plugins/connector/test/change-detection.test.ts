import test from 'ava';
import {
  call,
  createSite,
  createSource,
  makePackages,
  runAndWait,
  searchCall,
  searchIds,
  searchRecords,
  startPackageSource,
  startWithSite,
  tempJsonl,
  writeJsonl,
} from './helpers.js';

test('a run indexes new documents, skips unchanged ones, re-sends changed ones and de-indexes vanished ones', async (t) => {
  const first = makePackages(300);
  const { vela, file } = await startPackageSource(t, first, 'packages.jsonl.gz');

  const run1 = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(run1, {
    status: 'COMPLETED',
    operationType: 'INDEX_ALL',
    documentCount: 300,
    indexed: 300,
    unchanged: 0,
    deindexed: 0,
    errors: 0,
  });
  t.deepEqual(
    await searchIds(vela, 'Docs'),
    first.map((d) => d.id),
  );

  const run2 = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(
    run2,
    { status: 'COMPLETED', documentCount: 300, indexed: 0, unchanged: 300 },
    'nothing changed, nothing is sent',
  );

  // Change two, drop ten, add five.
  const second = [...first.slice(0, 290), ...makePackages(5, 1000)];
  second[0] = { ...second[0]!, title: 'a renamed package' };
  second[1] = { ...second[1]!, tags: ['tag-new'] };
  writeJsonl(file, second);
  const run3 = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(run3, { status: 'COMPLETED', documentCount: 295, indexed: 7, unchanged: 288, deindexed: 10, errors: 0 });
  t.deepEqual(await searchIds(vela, 'Docs'), second.map((d) => d.id).sort());

  const renamed = await vela
    .fetch('search', '/api/sn/Docs/search?q=renamed&_setlocale=en_US')
    .then((r) => r.json() as Promise<any>);
  t.deepEqual(
    renamed.results.document.map((d: any) => d.fields.id),
    ['pkg-00000'],
  );

  const records = await searchRecords(vela, 'pkgs', 'INDEXED', 1);
  t.is(records.body.totalElements, 295, 'one INDEXED record per document the search service holds');
  t.like(records.body.content[0], { source: 'pkgs', status: 'INDEXED', locale: 'en_US', sites: ['Docs'] });
  t.regex(records.body.content[0].checksum, /^[0-9a-f]{40}$/);
});

test('moving a source to other sites or another locale removes its documents from where they were', async (t) => {
  const vela = await startWithSite(t, 'Old');
  await createSite(vela, 'New');
  const added = await searchCall(vela, 'POST', '/api/sn/New/locale', { locale: 'pt_BR' });
  t.is(added.status, 201, JSON.stringify(added.body));
  const docs = makePackages(20);
  const file = tempJsonl(docs);
  const created = await createSource(vela, 'pkgs', file, 'Old');
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), { indexed: 20 });

  await call(vela, 'PUT', '/api/v2/connector/source/pkgs', { ...created.body, sites: ['New'] });
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
    status: 'COMPLETED',
    indexed: 20,
    errors: 0,
  });
  t.deepEqual(await searchIds(vela, 'Old'), []);
  t.deepEqual(
    await searchIds(vela, 'New'),
    docs.map((d) => d.id),
  );

  await call(vela, 'PUT', '/api/v2/connector/source/pkgs', { ...created.body, sites: ['New'], locale: 'pt_BR' });
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
    status: 'COMPLETED',
    indexed: 20,
    errors: 0,
  });
  t.deepEqual(await searchIds(vela, 'New'), [], 'nothing left in en_US');
  const pt = await searchCall(vela, 'GET', '/api/sn/New/search?q=*&_setlocale=pt_BR&rows=100&fl=id');
  t.is(pt.body.queryContext.count, 20);
});
