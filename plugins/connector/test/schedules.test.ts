import test from 'ava';
import { call, createSource, makePackages, startWithSite, tempJsonl } from './helpers.js';

test('a source with a cron schedule runs on its own, runs never overlap, and clearing the schedule stops it', async (t) => {
  const vela = await startWithSite(t, 'Docs');
  const file = tempJsonl(makePackages(2000));
  // Every second (node-cron's six-field form): ticks come faster than a 2,000-document first run ends.
  await createSource(vela, 'ticking', file, 'Docs', { schedule: '* * * * * *' });

  const deadline = Date.now() + 30_000;
  let runs: any[] = [];
  while (Date.now() < deadline) {
    const stats = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/ticking');
    runs = stats.status === 200 ? (stats.body as any[]).filter((r) => r.status !== 'RUNNING') : [];
    if (runs.length >= 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.true(runs.length >= 2, 'two scheduled runs ended');
  t.true(runs.every((r) => r.trigger === 'schedule' && r.status === 'COMPLETED'));
  const ordered = [...runs].sort((a, b) => a.startTime.localeCompare(b.startTime));
  for (let i = 1; i < ordered.length; i++)
    t.true(ordered[i].startTime >= ordered[i - 1].endTime, 'a run starts after the one before ended');
  t.is(ordered[0].indexed, 2000);
  t.is(ordered[1].unchanged, 2000);

  const source = await call(vela, 'GET', '/api/v2/connector/source/ticking');
  t.is((await call(vela, 'PUT', '/api/v2/connector/source/ticking', { ...source.body, schedule: null })).status, 200);
  // Let a run that had already started end, then no new one may begin.
  const settle = async () => {
    for (;;) {
      const s = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/ticking');
      if ((s.body as any[]).every((r) => r.status !== 'RUNNING')) return (s.body as any[]).length;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const count = await settle();
  const waitUntil = Date.now() + 2500;
  while (Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 250));
  t.is(await settle(), count, 'no run after the schedule was cleared');
});
