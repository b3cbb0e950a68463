import test from 'ava';
import type { Database } from 'vela/plugin';
import { startTestRuntime } from 'vela/testing';
import { ApiTokens } from '../auth/api-tokens.js';
import { MemoryWrites } from '../store/memory-writes.js';
import { SiteStore } from '../store/site-store.js';

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
  // The reload's read is taken at once, as a poll's read on another connection of the pool is, and answered late.
  let gated = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const lateRead = ((table: string) => {
    if (table !== 'search_api_tokens' || !gated) return db(table);
    gated = false;
    const read = db(table).select('id', 'token_hash', 'created_by', 'scopes');
    return { select: async () => (await Promise.all([read, released]))[0] };
  }) as unknown as Database;
  const tokens = new ApiTokens(lateRead);
  await tokens.load();
  const created = await tokens.create('short-lived', '', 'admin');
  t.truthy(tokens.verify(created.token));
  gated = true;
  const reload = tokens.load();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await tokens.delete(created.id);
  release();
  await reload;
  t.is(tokens.verify(created.token), null, 'the deleted token stays refused');
});

test('a refresh of the sites whose read began before this process created a site neither drops nor announces it deleted', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  let gated = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The store writes through it too (transactions): only the one read is held back.
  const lateRead = new Proxy(db, {
    apply(target, self, [table]: [string]) {
      if (table !== 'search_sites' || !gated) return Reflect.apply(target, self, [table]);
      gated = false;
      return { select: async (...columns: string[]) => (await Promise.all([db(table).select(...columns), released]))[0] };
    },
  });
  const sites = new SiteStore(lateRead);
  await sites.load();
  const changes: string[] = [];
  sites.onChange((change) => {
    changes.push(change.kind);
  });
  gated = true;
  const refresh = sites.refresh();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const creating = sites.create({ name: 'Meanwhile', locales: ['en_US'] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  await Promise.all([refresh, creating]);
  t.truthy(sites.find('Meanwhile'), 'the site created meanwhile is still known');
  t.false(changes.includes('site-deleted'));
});
