import test from 'ava';
import type { Database } from 'vela/plugin';
import { startTestRuntime } from 'vela/testing';
import { SiteStore } from '../store/site-store.js';

test('refreshSoon: a site written by another store before the call is known once it resolves; a flood of calls reads the sites at most 20 times a second', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  // Two stores on one database, as two processes: A writes, B has not heard of it.
  const a = new SiteStore(db, vela.runtime.logger);
  const b = new SiteStore(db, vela.runtime.logger);
  await a.load();
  await b.load();
  await a.create({ name: 'Written', locales: ['en_US'] });
  t.is(b.find('Written'), undefined);
  await b.refreshSoon();
  t.truthy(b.find('Written'), 'what was acknowledged before the call is seen');

  // Every read of the sites' fingerprints (a refresh) is counted, whoever makes it.
  let reads = 0;
  const count = (query: { sql: string }) => {
    // select id, name, updated_at from search_sites (quoted as the database quotes names).
    if (/^select .id., .name., .updated_at. from .search_sites.$/.test(query.sql)) reads += 1;
  };
  db.on('query', count);
  t.teardown(() => db.off('query', count));
  const started = performance.now();
  const calls: Array<Promise<void>> = [];
  // 50 calls a millisecond or so: a flood, yet a bounded one (yielding with setImmediate instead made millions of
  // calls, and awaiting them all took minutes of garbage collection).
  while (performance.now() - started < 500) {
    for (let i = 0; i < 50; i++) calls.push(b.refreshSoon());
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(calls);
  const seconds = (performance.now() - started) / 1000;
  t.true(calls.length > 1000, `${calls.length} calls`);
  // One refresh per 50 ms at most, plus the one already due and the runtime's own poll.
  t.true(
    reads >= 2 && reads <= Math.ceil(seconds * 20) + 2,
    `${reads} reads of the sites in ${seconds.toFixed(2)} s for ${calls.length} calls`,
  );
});
