import test from 'ava';
import type { Database } from 'vela/plugin';
import { startTestRuntime } from 'vela/testing';
import { ApiTokens } from '../auth/api-tokens.js';
import { MemoryWrites } from '../store/memory-writes.js';
import { SiteStore } from '../store/site-store.js';
import { heldRead } from './fixtures.js';

test('a read during which a write landed is made again; writes landing during every read give up (null)', async (t) => {
  const writes = new MemoryWrites();
  let reads = 0;
  t.is(await writes.settled(async () => ++reads), 1);
  const once = await writes.settled(async () => {
    reads += 1;
    if (reads === 2) writes.mark();
    return reads;
  });
  t.is(once, 3, 'the read that saw a write was made again');
  const never = await writes.settled(async () => {
    writes.mark();
    return 'stale';
  }, 3);
  t.is(never, null);
});

test("a reload of the API tokens whose read began before a token's deletion does not bring the token back", async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  const late = heldRead(db, 'search_api_tokens');
  const tokens = new ApiTokens(late.db);
  await tokens.load();
  const created = await tokens.create('short-lived', '', 'admin');
  t.truthy(tokens.verify(created.token));
  late.hold();
  const reload = tokens.load();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await tokens.delete(created.id);
  late.release();
  await reload;
  t.is(tokens.verify(created.token), null, 'the deleted token stays refused');
});

test('a refresh of the sites whose read began before this process created a site neither drops nor announces it deleted', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  const late = heldRead(db, 'search_sites');
  const sites = new SiteStore(late.db);
  await sites.load();
  const changes: string[] = [];
  sites.onChange((change) => {
    changes.push(change.kind);
  });
  late.hold();
  const refresh = sites.refresh();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const creating = sites.create({ name: 'Meanwhile', locales: ['en_US'] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  late.release();
  await Promise.all([refresh, creating]);
  t.truthy(sites.find('Meanwhile'), 'the site created meanwhile is still known');
  t.false(changes.includes('site-deleted'));
});
