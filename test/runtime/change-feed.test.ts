import test from 'ava';
import knexFactory from 'knex';
import { ChangeFeed, type ChangeInfo } from '../../runtime/changes/change-feed.js';
import { createLogger } from '../../runtime/logger.js';
import { postgresProxy, postgresReachable, testDatabase } from '../../runtime/testing/test-postgres.js';

const pgTest = postgresReachable() ? test : test.skip;
const logger = createLogger({ level: 'silent' });
const noDb = () => {
  throw new Error('no database in process mode');
};

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('without PostgreSQL the feed delivers in this process only, at once, to the channel subscribed', async (t) => {
  t.timeout(10_000);
  const feed = new ChangeFeed(noDb as never, null, logger);
  t.is(feed.mode, 'process');
  const seen: Array<[unknown, ChangeInfo]> = [];
  const unsubscribe = feed.subscribe('demo.things', (payload, info) => seen.push([payload, info]));
  feed.subscribe('demo.other', () => t.fail('another channel'));
  t.true(await feed.publish('demo.things', { id: 1 }));
  t.deepEqual(seen, [[{ id: 1 }, { local: true, resync: false }]]);
  unsubscribe();
  await feed.publish('demo.things', { id: 2 });
  t.is(seen.length, 1);
  t.throws(() => feed.subscribe('Bad Channel', () => undefined), { message: /not a change channel name/ });
  await t.throwsAsync(feed.publish('demo.things', 'x'.repeat(8000)), { message: /payload over/ });
  await feed.ready();
  await feed.close();
});

pgTest(
  'on PostgreSQL two feeds see each other within milliseconds, and one whose connection was cut reconnects and asks for a resync',
  async (t) => {
    // Two connections, a cut and a reconnect (the feed retries within 10 s).
    t.timeout(60_000);
    const pg = await testDatabase(t);
    const proxy = await postgresProxy(t);
    const dbA = knexFactory({ client: 'pg', connection: pg.url, pool: { min: 0, max: 2 } });
    const dbB = knexFactory({ client: 'pg', connection: pg.url, pool: { min: 0, max: 2 } });
    const a = new ChangeFeed(() => dbA, pg.url, logger);
    // B listens through the proxy, so the test can cut its connection.
    const b = new ChangeFeed(() => dbB, proxy.url(pg.url), logger);
    t.teardown(async () => {
      await a.close();
      await b.close();
      await dbA.destroy();
      await dbB.destroy();
    });
    t.is(b.mode, 'postgres');
    const onB: Array<[unknown, ChangeInfo]> = [];
    const onA: Array<[unknown, ChangeInfo]> = [];
    b.subscribe('demo.things', (payload, info) => onB.push([payload, info]));
    a.subscribe('demo.things', (payload, info) => onA.push([payload, info]));
    await Promise.all([a.ready(), b.ready()]);

    const sent = performance.now();
    t.true(await a.publish('demo.things', { id: 1 }));
    await until(() => onB.length === 1);
    t.log(`delivered to the other feed in ${(performance.now() - sent).toFixed(1)} ms`);
    t.deepEqual(onB[0], [{ id: 1 }, { local: false, resync: false }]);
    // The publisher got its own message once, as local.
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.deepEqual(onA, [[{ id: 1 }, { local: true, resync: false }]]);

    proxy.cut();
    await until(() => !b.live);
    // Published while B is cut off: lost for B, which is why it resyncs when it is back.
    await a.publish('demo.things', { id: 2 });
    proxy.restore();
    await until(() => b.live, 10_000);
    await until(() => onB.some(([, info]) => info.resync));
    t.false(onB.some(([payload]) => (payload as { id?: number } | undefined)?.id === 2));
    await a.publish('demo.things', { id: 3 });
    await until(() => onB.some(([payload]) => (payload as { id?: number } | undefined)?.id === 3));
  },
);
