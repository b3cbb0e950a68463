import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import {
  call,
  createSource,
  makePackages,
  postSource,
  runAndWait,
  searchIds,
  searchRecords,
  startConnector,
  startRemoteConnector,
  startRemoteSearch,
  tempJsonl,
  writeJsonl,
} from './helpers.js';

test('with a search URL, documents go over HTTP with the Key header to a separately started search service', async (t) => {
  const remote = await startRemoteSearch(t, 'Remote');
  const { search } = remote;
  const vela = await startRemoteConnector(t, remote, { batchSize: 150 });

  const docs = makePackages(400);
  const file = tempJsonl(docs);
  const unknownSite = await postSource(vela, 'elsewhere', file, 'Missing');
  t.is(unknownSite.status, 400, 'the remote search service is asked for the sites');
  t.regex(unknownSite.body.message, /^sites\[0\] must name a site of the search service, got "Missing"/);
  await createSource(vela, 'pkgs', file, 'Remote');
  const first = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(first, { status: 'COMPLETED', indexed: 400, errors: 0 });
  t.deepEqual(
    await searchIds(search, 'Remote'),
    docs.map((d) => d.id),
    'searchable when the run ends',
  );

  writeJsonl(file, docs.slice(0, 350));
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
    unchanged: 350,
    indexed: 0,
    deindexed: 50,
  });
  t.deepEqual(
    await searchIds(search, 'Remote'),
    docs.slice(0, 350).map((d) => d.id),
  );

  const diff = await call(vela, 'GET', '/api/v2/connector/validate/pkgs');
  t.deepEqual(diff.body.missing, { 'Remote/en_US': [] });
  t.deepEqual(diff.body.extra, { 'Remote/en_US': [] });
  t.is(diff.body.counts.inSearch, 350);

  // Reindex by ids deletes and sends just those.
  t.like(await runAndWait(vela, '/api/v2/connector/reindex/pkgs', 'pkgs', ['pkg-00001', 'pkg-00002']), {
    status: 'COMPLETED',
    operationType: 'REINDEX_IDS',
    documentCount: 2,
    indexed: 2,
  });
  t.is((await searchIds(search, 'Remote')).length, 350);
});

test('a wrong key or an unreachable search service fails the run with the reason, and the next good run catches up', async (t) => {
  const remote = await startRemoteSearch(t, 'Remote');
  const { search } = remote;
  const docs = makePackages(50);
  const file = tempJsonl(docs);

  const wrongKey = await startRemoteConnector(t, { url: remote.url, key: 'not-a-token' });
  await createSource(wrongKey, 'pkgs', file, 'Remote');
  const refused = await runAndWait(wrongKey, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is(refused.status, 'FAILED');
  t.regex(refused.error, /answered 401/);
  const errors = await searchRecords(wrongKey, 'pkgs', 'ERROR', 1);
  t.is(errors.body.totalElements, 50, 'the refused batch is recorded, never INDEXED');

  const unreachable = await startRemoteConnector(t, { url: 'http://127.0.0.1:9', key: 'x' });
  await createSource(unreachable, 'pkgs', file, 'Remote');
  const down = await runAndWait(unreachable, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is(down.status, 'FAILED');
  t.regex(down.error, /cannot be reached/);
  const validate = await call(unreachable, 'GET', '/api/v2/connector/validate/pkgs');
  t.is(validate.status, 502, 'the search service is down: a 502 saying so, not a 500');
  t.is(validate.body.error, 'search_unavailable');
  t.regex(validate.body.message, /cannot be reached/);

  const good = await startRemoteConnector(t, remote);
  await createSource(good, 'pkgs', file, 'Remote');
  t.like(await runAndWait(good, '/api/v2/connector/index/pkgs/all', 'pkgs'), { status: 'COMPLETED', indexed: 50 });
  t.is((await searchIds(search, 'Remote')).length, 50);
});

test('without a co-hosted search plugin only the configured keys are accepted', async (t) => {
  const vela = await startRemoteConnector(t, { url: 'http://127.0.0.1:9', key: null });
  t.is((await call(vela, 'GET', '/api/v2/connector/source')).status, 200);
  t.is((await call(vela, 'GET', '/api/v2/connector/source', undefined, { key: 'something-else' })).status, 401);
});

test('without a search plugin and without a search URL, runs are refused with 503 JSON saying what to configure', async (t) => {
  const vela = await startConnector({ plugins: ['connector'] });
  t.teardown(() => vela.stop());
  const file = tempJsonl(makePackages(3));
  await createSource(vela, 'pkgs', file, 'Remote');
  const r = await call(vela, 'GET', '/api/v2/connector/index/pkgs/all');
  t.is(r.status, 503);
  t.is(r.body.error, 'search_unavailable');
  t.regex(r.body.message, /plugins\.connector\.search\.url/);
});

test('a search service that accepts connections but never answers does not hold a source save for long', async (t) => {
  const sockets = new Set<import('node:net').Socket>();
  const silent = http.createServer(() => undefined);
  silent.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const vela = await startRemoteConnector(t, {
    url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    key: 'k',
  });
  const file = tempJsonl(makePackages(3));
  // The search service never answers: the save comes back only because the site check gives up.
  const created = await postSource(vela, 'pkgs', file, 'Remote');
  t.is(created.status, 201, 'saved unchecked: its runs will report the problem');
});

test('a search URL with a password in it never shows the password, in run statistics or in logs', async (t) => {
  const vela = await startRemoteConnector(t, { url: 'http://scott:tiger-secret@127.0.0.1:9', key: 'k' });
  const file = tempJsonl(makePackages(3));
  await createSource(vela, 'pkgs', file, 'Remote');
  const run = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is(run.status, 'FAILED');
  t.regex(run.error, /the search service at http:\/\/\*\*\*@127\.0\.0\.1:9 cannot be reached/);
  t.false(JSON.stringify(run).includes('tiger-secret'));
  t.false(JSON.stringify(vela.logs).includes('tiger-secret'));
});
