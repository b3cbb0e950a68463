import test from 'ava';
import { postgresReachable, testDatabase } from 'vela/testing';
import { ASSETS, AUTHOR_SITE, call, EN_PAGES, edit, runsOf, searchIds, setUpCms, waitForRuns } from './helpers.js';

const pgTest = postgresReachable() ? test : test.skip;
const ADVENTURES = '/content/wknd/us/en/adventures';

pgTest(
  'on PostgreSQL a cms source runs in full and incrementally, filters repeats and removes a deleted tree',
  async (t) => {
    const pg = await testDatabase(t);
    const { server, vela, source } = await setUpCms(t, { databaseUrl: pg.url, source: { publish: false } });
    // The password is sealed in PostgreSQL as in SQLite: what is read back opens the repository.
    await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
    t.like((await waitForRuns(vela, 'wknd-author', 1))[0], {
      status: 'COMPLETED',
      operationType: 'INDEX_ALL',
      indexed: 13,
      errors: 0,
    });
    t.deepEqual(await searchIds(vela, AUTHOR_SITE), [...EN_PAGES, ...ASSETS].sort());

    edit(server, '/content/wknd/us/en/magazine', '2024-04-01T10:00:00Z', { 'jcr:title': 'The Magazine' });
    await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
    t.like((await waitForRuns(vela, 'wknd-author', 2))[0], { status: 'COMPLETED', indexed: 1, unchanged: 12 });

    // A tree AEM deleted is found in what the connector holds (its ids by prefix); the repeat filter's insert
    // on its key decides on PostgreSQL too.
    server.remove(ADVENTURES);
    await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [ADVENTURES], recursive: true, event: 'DEINDEXING' });
    await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [ADVENTURES], recursive: true, event: 'DEINDEXING' });
    t.like((await waitForRuns(vela, 'wknd-author', 3))[0], {
      operationType: 'DEINDEX_IDS',
      status: 'COMPLETED',
      deindexed: 3,
    });
    t.is((await runsOf(vela, 'wknd-author')).length, 3, 'the repeat ran nothing');
    t.false((await searchIds(vela, AUTHOR_SITE)).some((id) => id.startsWith(ADVENTURES)));
  },
);
