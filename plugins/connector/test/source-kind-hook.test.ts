import test from 'ava';
import { testFolder } from 'vela/testing';
import {
  call,
  createSite,
  postKindSource,
  postSource,
  runAndWait,
  searchIds,
  startConnector,
  startWithKind,
} from './helpers.js';

// A plugin in its own folder, as the cms plugin is: it taps the connector's hook to add a kind.
const MEMORY_KIND = `{
  name: 'memory',
  description: 'documents listed in the settings',
  settingsSchema: { type: 'object', required: ['docs'], properties: { docs: { type: 'array', items: { type: 'object', required: ['id'] } } } },
  async *read(ctx) {
    for (const doc of ctx.source.settings.docs) {
      if (ctx.onlyIds && !ctx.onlyIds.includes(doc.id)) continue;
      yield { id: doc.id, attributes: doc };
    }
  },
}`;

test('a plugin adds a source kind through the connector.sourceKinds hook, and its sources run like the built-in ones', async (t) => {
  const vela = await startWithKind('memory', MEMORY_KIND);
  t.teardown(() => vela.stop());
  const kinds = await call(vela, 'GET', '/api/v2/connector/source/kinds');
  t.deepEqual(
    kinds.body.map((k: any) => k.name),
    ['filesystem', 'jsonl', 'memory', 'web'],
  );
  t.deepEqual(
    vela.runtime.hookBus.describe().find((h) => h.name === 'connector.sourceKinds'),
    { name: 'connector.sourceKinds', owner: 'connector', taps: ['memory-kind:memory'] },
  );

  const bad = await postKindSource(vela, 'mem', 'memory', ['Docs'], {});
  t.is(bad.status, 400);
  t.regex(bad.body.message, /settings\.docs is required/);

  await createSite(vela, 'Docs');
  const created = await postKindSource(vela, 'mem', 'memory', ['Docs'], {
    docs: [
      { id: 'm1', title: 'one' },
      { id: 'm2', title: 'two' },
    ],
  });
  t.is(created.status, 201);
  t.like(await runAndWait(vela, '/api/v2/connector/index/mem/all', 'mem'), { status: 'COMPLETED', indexed: 2 });
  t.deepEqual(await searchIds(vela, 'Docs'), ['m1', 'm2']);
});

test("a stored source whose kind's plugin is not loaded is skipped with a warning, and its name stays taken", async (t) => {
  const dataDir = testFolder(t, 'connector');
  const first = await startWithKind('memory', MEMORY_KIND, { dataDir });
  await createSite(first, 'Docs');
  t.is(
    (
      await call(first, 'POST', '/api/v2/connector/source', {
        name: 'mem',
        kind: 'memory',
        sites: ['Docs'],
        settings: { docs: [] },
      })
    ).status,
    201,
  );
  await first.stop();

  const second = await startConnector({ dataDir });
  t.teardown(() => second.stop());
  t.true(second.logs.some((l) => l.msg.startsWith('stored source skipped') && l.source === 'mem'));
  t.deepEqual((await call(second, 'GET', '/api/v2/connector/source')).body, []);
  const again = await postSource(second, 'mem', '/nowhere.jsonl', 'Docs');
  t.is(again.status, 409);
});
