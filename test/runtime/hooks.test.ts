import test from 'ava';
import { AsyncSeriesWaterfallHook, HookMap, SyncHook } from 'tapable';
import { HookBus } from '../../runtime/hooks/hook-bus.js';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

declare module 'vela/plugin' {
  interface HookRegistry {
    'owner.transform': AsyncSeriesWaterfallHook<[string]>;
    'owner.notify': SyncHook<[number]>;
    'owner.perSite': HookMap<SyncHook<[string]>>;
  }
}

test('taps are applied after every plugin registered, named, in stage order', async (t) => {
  const bus = new HookBus();
  // The tap comes before the declaration, as when a plugin taps a hook of one that registers later.
  bus.tapPromise('owner.transform', 'b:upper', async (s) => s.toUpperCase());
  bus.tapPromise('owner.transform', 'a:exclaim', async (s) => `${s}!`, { stage: -1 });
  const hooks = bus.declare('owner', { transform: new AsyncSeriesWaterfallHook<[string]>(['text']) }, [
    'owner.transform',
  ]);
  bus.applyPendingTaps();
  t.is(await hooks.transform.promise('hi'), 'HI!');
  t.deepEqual(bus.describe(), [{ name: 'owner.transform', owner: 'owner', taps: ['a:exclaim', 'b:upper'] }]);
});

test("a tap on a hook nobody declared fails with the hook's name", (t) => {
  const bus = new HookBus();
  bus.tap('owner.notify', 'x:listen', () => undefined);
  const error = t.throws(() => bus.applyPendingTaps());
  t.is(error?.message, 'tap "x:listen" is on hook "owner.notify", which no loaded plugin declares');
});

test('declaring a hook the manifest does not list, or twice, is refused', (t) => {
  const bus = new HookBus();
  t.throws(() => bus.declare('owner', { notify: new SyncHook<[number]>(['n']) }, []), {
    message: 'plugin "owner": declares hook "owner.notify", which its manifest does not list in "hooks"',
  });
  bus.declare('owner', { notify: new SyncHook<[number]>(['n']) });
  t.throws(() => bus.declare('owner', { notify: new SyncHook<[number]>(['n']) }), {
    message: 'plugin "owner": hook "owner.notify" is declared twice',
  });
});

test('a HookMap hook is tapped per key', (t) => {
  const bus = new HookBus();
  const hooks = bus.declare('owner', { perSite: new HookMap(() => new SyncHook<[string]>(['doc'])) });
  const seen: string[] = [];
  bus.tapFor('owner.perSite', 'sample', 'x:watch', (doc: string) => {
    seen.push(doc);
  });
  bus.applyPendingTaps();
  hooks.perSite.for('sample').call('d1');
  hooks.perSite.for('other').call('d2');
  t.deepEqual(seen, ['d1']);
});

test("a plugin taps another plugin's declared hook; tapping an undeclared one stops the start", async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('owner', { hooks: ['owner.decorate'] }),
      files: {
        'index.ts': `export default { register(ctx) {
        const hooks = ctx.hooks.declare((t) => ({ decorate: new t.SyncWaterfallHook(['text']) }));
        ctx.routes((r) => r.get('/decorated', { access: 'public' }, (_q, res) => res.json({ text: hooks.decorate.call('plain'), taps: ctx.hooks.get('owner.decorate').taps.map((x) => x.name) })));
      } };`,
      },
    },
    {
      manifest: manifest('decorator', { dependsOn: ['owner'] }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.hooks.tap('owner.decorate', 'stars', (s) => '*' + s + '*'); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/decorated')).json(), { text: '*plain*', taps: ['decorator:stars'] });

  const broken = await writePlugins([
    {
      manifest: manifest('lost'),
      files: { 'index.ts': `export default { register(ctx) { ctx.hooks.tap('search.afterQuery', 'x', () => {}); } };` },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [broken] }));
  t.is(error?.message, 'tap "lost:x" is on hook "search.afterQuery", which no loaded plugin declares');
});

test('a hook listed in the manifest but never declared is reported', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('liar', { hooks: ['liar.ghost'] }),
      files: { 'index.ts': 'export default { register() {} };' },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is(error?.message, 'plugin "liar": manifest lists hooks it never declared in register(): liar.ghost');
});

test('runtime.httpRequest gates requests and runtime.httpResponse times them', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('guard'),
      files: {
        'index.ts': `const timings = [];
      export default { register(ctx) {
        ctx.hooks.tap('runtime.httpRequest', 'deny-secret', ({ req }) => req.url.startsWith('/secret') ? { status: 403, error: 'forbidden', message: 'not here' } : undefined);
        ctx.hooks.tap('runtime.httpResponse', 'record', (e) => { timings.push(e); });
        ctx.routes((r) => { r.get('/items/:id', { access: 'public' }, (_q, res) => res.json({ ok: true })); r.get('/timings', { access: 'public' }, (_q, res) => res.json(timings)); });
      } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  const denied = await vela.fetch('search', '/secret/x');
  t.is(denied.status, 403);
  t.deepEqual(await denied.json(), { error: 'forbidden', message: 'not here' });
  t.is((await vela.fetch('search', '/items/7?x=1')).status, 200);
  const timings = (await (await vela.fetch('search', '/timings')).json()) as Array<{
    route: string;
    path: string;
    status: number;
    durationMs: number;
    method: string;
    service: string;
  }>;
  const item = timings.find((e) => e.path === '/items/7')!;
  t.is(item.route, '/items/:id', 'the matched route pattern, for grouping');
  t.is(item.status, 200);
  t.is(item.service, 'search');
  t.true(item.durationMs >= 0);
});
