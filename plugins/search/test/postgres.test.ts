import test from 'ava';
import { createTestPostgres, postgresReachable } from '../../../runtime/testing/test-postgres.js';
import { startTestRuntime } from '../../../runtime/testing/test-runtime.js';
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
  await json(first, 'POST', '/api/sn/import?wait=true', { turingDocuments: [{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } }] });
  await first.stop();

  const second = await startTestRuntime({ plugins: ['search'], databaseUrl: pg.url });
  t.teardown(() => second.stop());
  t.is((await search(second, 'q=*&_setlocale=en_US')).body.queryContext.count, 149);
  const token = await json(second, 'POST', '/api/dev/token', { title: 'pg' });
  t.is(token.status, 201);
  t.is((await second.fetch('search', '/api/sn', { headers: { key: token.body.token } })).status, 200);
});
