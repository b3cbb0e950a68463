import test from 'ava';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

test("a plugin resolves what it consumes, and another plugin's service through the root container", async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('clock', { provides: ['clock.now'] }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.provide('clock.now', () => ({ now: () => 42 })); } };`,
      },
    },
    {
      manifest: manifest('reader', { dependsOn: ['clock'], consumes: ['clock.now', 'db', 'httpClient'] }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/now', { access: 'public' }, async (_q, res) => {
        const db = ctx.resolve('db'); await db.raw('select 1');
        res.json({ now: ctx.resolve('clock.now').now(), http: typeof ctx.resolve('httpClient').fetch });
      })); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/now')).json(), { now: 42, http: 'function' });
});

test('resolving a service the manifest does not consume fails with a named error', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('nosy', { consumes: ['logger'] }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/peek', { access: 'public' }, (_q, res) => {
      try { ctx.resolve('db'); res.json({ leaked: true }); } catch (e) { res.json({ code: e.code, message: e.message }); }
    })); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/peek')).json(), {
    code: 'E_SERVICE_NOT_CONSUMED',
    message: 'plugin "nosy" resolved service "db", which its manifest does not list in "consumes"',
  });
});

test("each plugin gets its own scope: its logger and config, not its neighbour's", async (t) => {
  const plugin = (name: string) => ({
    manifest: manifest(name, { configSchema: './schema.json' }),
    files: {
      'schema.json': '{"type":"object","properties":{"label":{"type":"string"}}}',
      'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/${name}/scope', { access: 'public' }, (_q, res) => res.json({ label: ctx.resolve('pluginConfig').label, bound: ctx.resolve('logger').bindings().plugin }))); } };`,
    },
  });
  const loaderPath = await writePlugins([plugin('left'), plugin('right')]);
  const vela = await startTestRuntime({
    loaderPath: [loaderPath],
    config: { plugins: { left: { label: 'L' }, right: { label: 'R' } } },
  });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/left/scope')).json(), { label: 'L', bound: 'left' });
  t.deepEqual(await (await vela.fetch('search', '/right/scope')).json(), { label: 'R', bound: 'right' });
});

test('consuming a service nothing provides fails the start by name, unless it is marked optional', async (t) => {
  const required = await writePlugins([
    {
      manifest: manifest('needy', { consumes: ['search.retriever'] }),
      files: { 'index.ts': 'export default { register() {} };' },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [required] }));
  t.is(
    error?.message,
    'plugin "needy" consumes service "search.retriever", which neither the runtime nor any loaded plugin provides',
  );

  const optional = await writePlugins([
    {
      manifest: manifest('relaxed', { consumes: ['search.retriever?'] }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/opt', { access: 'public' }, (_q, res) => res.json({ found: ctx.tryResolve('search.retriever') !== undefined }))); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [optional] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/opt')).json(), { found: false });
});

test('providing a service the manifest does not list is refused', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('sneaky'),
      files: { 'index.ts': `export default { register(ctx) { ctx.provide('sneaky.thing', () => 1); } };` },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is(
    error?.message,
    'plugin "sneaky" provides service "sneaky.thing", which its manifest does not list in "provides"',
  );
});

test('a provided service is disposed at stop', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('res', { provides: ['res.handle'] }),
      files: {
        'index.ts': `export const state = { closed: false };
      export default { register(ctx) {
        ctx.provide('res.handle', () => ({ open: true }), { dispose: () => { state.closed = true; } });
        return { start() { ctx.resolve('res.handle'); } };
      } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  const mod = (await import(`${loaderPath}/res/index.ts`)) as { state: { closed: boolean } };
  await vela.stop();
  t.true(mod.state.closed);
});
