import test from 'ava';
import type { Changes } from 'vela/plugin';
import { postgresProxy, postgresReachable, testDatabase } from 'vela/testing';
import { admin, clientCredentials, createApp, createMapping, startGateway, startServer } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

pgTest(
  'PostgreSQL briefly unreachable: proxying goes on from memory, writes answer 503, and everything recovers without a restart',
  async (t) => {
    const pg = await testDatabase(t);
    const proxy = await postgresProxy(t);
    const upstream = await startServer((_req, res) => res.end('{"ok":true}'));
    t.teardown(() => upstream.close());
    const vela = await startGateway({ syncMs: 200 }, { databaseUrl: proxy.url(pg.url) });
    t.teardown(() => vela.stop());
    const changes = vela.runtime.resolve<Changes & { live: boolean }>('changes');
    await changes.ready();

    await createMapping(vela, { context: '/proxy/orders/v1', url: upstream.url });
    const app = await createApp(vela, { name: 'outage' });
    const issued = await clientCredentials(vela, app);
    const call = (token: string) =>
      vela.fetch('gateway', '/orders/v1/x', { headers: { authorization: `Bearer ${token}` } });
    t.is((await call(issued.body.access_token)).status, 200);

    proxy.cut();
    const cutAt = Date.now();
    // Known tokens and mappings are in memory: the proxy goes on.
    for (let i = 0; i < 5; i++) t.is((await call(issued.body.access_token)).status, 200);
    t.is((await call(app.accessToken!)).status, 200);
    // A token this process does not know cannot be checked: 503 with Retry-After, not a 401 (nor a 500).
    const unknown = await call('00000000000000000000000000000000');
    t.is(unknown.status, 503);
    t.truthy(unknown.headers.get('retry-after'));
    t.is((await unknown.json()).error, 'service_unavailable');
    // Writes are refused with 503 and Retry-After, never 500.
    const write = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/during/v1', url: upstream.url });
    t.is(write.status, 503, JSON.stringify(write.body));
    t.is(write.body.error, 'service_unavailable');
    t.truthy(write.headers.get('retry-after'));
    const token = await clientCredentials(vela, app);
    t.is(token.status, 503, JSON.stringify(token.body));
    // Health says the database is down.
    t.is((await vela.fetch('gateway', '/health')).status, 503);
    t.log(`outage answers took ${Date.now() - cutAt} ms`);

    proxy.restore();
    const restoredAt = Date.now();
    // Recovery without a restart: writes work again, the change feed listens again, nothing written before is lost.
    let created = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/after/v1', url: upstream.url });
    while (created.status === 503 && Date.now() - restoredAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      created = await admin(vela, 'POST', '/api/v2/mapping', { context: '/proxy/after/v1', url: upstream.url });
    }
    t.is(created.status, 201, JSON.stringify(created.body));
    while (!changes.live && Date.now() - restoredAt < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
    t.true(changes.live, 'the change feed reconnected');
    t.log(`recovered in ${Date.now() - restoredAt} ms`);
    const list = (await admin(vela, 'GET', '/api/v2/mapping')).body as Array<{ context: string }>;
    t.deepEqual(list.map((m) => m.context).sort(), ['/proxy/after/v1', '/proxy/orders/v1']);
    const again = await clientCredentials(vela, app);
    t.is(again.status, 200);
    t.is((await call(again.body.access_token)).status, 200);
    t.is((await call(issued.body.access_token)).status, 200);
  },
);
