import test from 'ava';
import { createTestPostgres, eventually, postgresReachable, startTestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

pgTest('on PostgreSQL the search service stores, indexes, searches and survives a restart', async (t) => {
  const pg = await createTestPostgres();
  if (!pg) return t.fail('PostgreSQL refused to create a test database');
  t.teardown(() => pg.drop());
  const docs = makeDocs(150);
  const first = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  await createSite(first);
  const imported = await importDocs(first, docs);
  t.is(imported.accepted, 150);
  const r = await search(first, 'q=*&_setlocale=en_US&fq[]=arch:all');
  t.is(r.body.queryContext.count, docs.filter((d) => d.arch === 'all').length);
  const m = await json(first, 'GET', '/api/sn/Sample/monitoring');
  t.like(m.body, { documents: 150, queue: 0 });
  await json(first, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } }],
  });
  await first.stop();

  const second = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  t.teardown(() => second.stop());
  t.is((await search(second, 'q=*&_setlocale=en_US')).body.queryContext.count, 149);
  const token = await json(second, 'POST', '/api/dev/token', { title: 'pg' });
  t.is(token.status, 201);
  t.is((await second.fetch('search', '/api/sn', { headers: { key: token.body.token } })).status, 200);
});

pgTest("processes sharing one PostgreSQL database see each other's sites, documents and token revocations", async (t) => {
  const pg = await createTestPostgres();
  if (!pg) return t.fail('PostgreSQL refused to create a test database');
  t.teardown(() => pg.drop());
  const config = { plugins: { search: { indexer: { pollMs: 150 } } } };
  const a = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url, config });
  const b = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url, config });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  await createSite(a);
  await importDocs(a, makeDocs(40));
  const token = (await json(a, 'POST', '/api/dev/token', { title: 'shared' })).body.token as string;
  await eventually(async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.count === 40, 'B seeing the site and its documents');
  await eventually(async () => (await b.fetch('search', '/api/sn', { headers: { key: token } })).status === 200, 'B accepting the new token');
  await json(a, 'DELETE', `/api/dev/token/${(await json(a, 'GET', '/api/dev/token')).body[0].id}`);
  await eventually(async () => (await b.fetch('search', '/api/sn', { headers: { key: token } })).status === 401, 'B refusing the revoked token');
  await json(a, 'PUT', '/api/sn/Sample', { rowsPerPage: 4 });
  await eventually(async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.limit === 4, 'B using the new site settings');
  t.is((await search(b, 'q=*&_setlocale=en_US')).body.queryContext.count, 40, 'B still finds every document');
});
