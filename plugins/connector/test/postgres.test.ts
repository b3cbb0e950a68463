import test from 'ava';
import { postgresReachable, testDatabase } from 'vela/testing';
import {
  call,
  createSite,
  createSource,
  makePackages,
  runAndWait,
  searchIds,
  startConnector,
  tempJsonl,
  writeJsonl,
} from './helpers.js';

const pgTest = postgresReachable() ? test : test.skip;

pgTest(
  'on PostgreSQL the connector tracks changes, rules, monitoring search and statistics across a restart',
  async (t) => {
    const pg = await testDatabase(t);
    const first = await startConnector({ databaseUrl: pg.url });
    let firstStopped = false;
    t.teardown(() => (firstStopped ? undefined : first.stop()));
    await createSite(first, 'Docs');
    const docs = makePackages(250);
    const file = tempJsonl(docs);
    await createSource(first, 'pkgs', file, 'Docs');
    await call(first, 'POST', '/api/v2/connector/indexing-rule', {
      name: 'no web',
      source: 'pkgs',
      attribute: 'section',
      values: ['web'],
    });
    t.like(await runAndWait(first, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
      status: 'COMPLETED',
      indexed: 187,
      ignored: 63,
      errors: 0,
    });
    await first.stop();
    firstStopped = true;

    const second = await startConnector({ databaseUrl: pg.url });
    t.teardown(() => second.stop());
    writeJsonl(file, docs.slice(0, 200));
    t.like(await runAndWait(second, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
      status: 'COMPLETED',
      unchanged: 150,
      ignored: 50,
      deindexed: 37,
      errors: 0,
    });
    t.deepEqual(
      await searchIds(second, 'Docs'),
      docs
        .slice(0, 200)
        .filter((d) => d.section !== 'web')
        .map((d) => d.id),
    );
    const page = await call(second, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
      source: 'pkgs',
      status: 'INDEXED',
      objectId: 'PKG-001',
      page: 1,
      size: 20,
    });
    t.like(page.body, { totalElements: 75, totalPages: 4, page: 1 });
    t.is(page.body.content.length, 20);
    const stats = await call(second, 'GET', '/api/v2/connector/monitoring/indexing/stats/pkgs');
    t.is(stats.body.length, 2);
    t.deepEqual((await call(second, 'GET', '/api/v2/connector/validate/pkgs')).body.missing, { 'Docs/en_US': [] });
  },
);
