import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { manifest, type PluginFixture, packPlugin, startTestRuntime, writePlugins } from 'vela/testing';
import { selectAndOrder } from '../../runtime/plugins/dependency-order.js';
import { scanLoaderPath } from '../../runtime/plugins/discover.js';
import type { PluginDescriptor } from '../../runtime/plugins/manifest.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-loader-'));

const routePlugin = (name: string, extra: Record<string, unknown> = {}): PluginFixture => ({
  manifest: manifest(name, extra),
  files: {
    'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/${name}', { access: 'public' }, (_q, res) => res.json({ plugin: '${name}' }))); } };`,
  },
});

const descriptor = (name: string, dependsOn: string[] = [], optionalDependencies: string[] = []): PluginDescriptor => ({
  manifest: {
    name,
    version: '1.0.0',
    runtime: '^1.0.0',
    main: './index.ts',
    service: 'search',
    dependsOn,
    optionalDependencies,
    consumes: [],
    provides: [],
    hooks: [],
    formerConfig: [],
  },
  dir: `/p/${name}`,
  manifestFile: `/p/${name}/plugin.json`,
  origin: { kind: 'folder', path: `/p/${name}` },
});

test('plugins start after their dependencies', (t) => {
  const order = selectAndOrder(
    [
      descriptor('genai', ['search']),
      descriptor('cms', ['connector']),
      descriptor('search'),
      descriptor('connector', [], ['search']),
    ],
    null,
    [],
  );
  const names = order.map((d) => d.manifest.name);
  t.true(names.indexOf('search') < names.indexOf('genai'));
  t.true(names.indexOf('connector') < names.indexOf('cms'));
  t.true(
    names.indexOf('search') < names.indexOf('connector'),
    'an optional dependency that is present orders the start',
  );
});

test('--plugins loads the named plugins and their hard dependencies only', (t) => {
  const order = selectAndOrder(
    [
      descriptor('genai', ['search']),
      descriptor('search'),
      descriptor('gateway'),
      descriptor('connector', [], ['search']),
    ],
    ['genai', 'connector'],
    [],
  );
  t.deepEqual(order.map((d) => d.manifest.name).sort(), ['connector', 'genai', 'search']);
});

test('a missing dependency is reported by both names', (t) => {
  const error = t.throws(() => selectAndOrder([descriptor('genai', ['search'])], null, []));
  t.is(error?.message, 'plugin "genai" depends on "search", which is not on the loader path');
});

test('a dependency cycle is reported with the whole cycle', (t) => {
  const error = t.throws(() =>
    selectAndOrder([descriptor('a', ['b']), descriptor('b', ['c']), descriptor('c', ['a'])], null, []),
  );
  t.is(error?.message, 'plugin dependency cycle: a -> b -> c -> a');
});

test('a plugin asked for with --plugins that is not on the loader path is named', (t) => {
  const error = t.throws(() => selectAndOrder([descriptor('search')], ['gateway'], ['/opt/plugins']));
  t.is(error?.message, 'plugin "gateway" was asked for with --plugins but is not on the loader path (/opt/plugins)');
});

test('a plugin folder on the loader path mounts its routes', async (t) => {
  const loaderPath = await writePlugins([routePlugin('alpha')]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/alpha')).json(), { plugin: 'alpha' });
  t.deepEqual(vela.runtime.pluginNames, ['alpha']);
});

test('a packed archive on the loader path is unpacked into the cache once and loaded', async (t) => {
  const source = await writePlugins([routePlugin('packed', { version: '2.1.0' })]);
  const archives = tmp();
  const archive = await packPlugin(path.join(source, 'packed'), archives);
  t.is(path.basename(archive), 'packed-2.1.0.tgz');

  const dataDir = tmp();
  const first = await startTestRuntime({ loaderPath: [archives], dataDir });
  t.deepEqual(await (await first.fetch('search', '/packed')).json(), { plugin: 'packed' });
  t.is(first.runtime.tree()!.services[0]!.plugins[0]!.origin, 'archive');
  t.true(
    first.logs.some((l) => l.msg.startsWith('unpacking plugin packed from its archive')),
    'the first start says it unpacks',
  );
  await first.stop();

  const cache = readdirSync(path.join(dataDir, 'plugin-cache'));
  t.is(cache.length, 1);
  t.regex(cache[0]!, /^packed-2\.1\.0-[0-9a-f]{16}$/, 'the cache is keyed by name, version and content hash');

  const second = await startTestRuntime({ loaderPath: [archives], dataDir });
  t.teardown(() => second.stop());
  t.deepEqual(readdirSync(path.join(dataDir, 'plugin-cache')), cache, 'the second start reuses the unpacked archive');
  t.false(
    second.logs.some((l) => l.msg.startsWith('unpacking plugin')),
    'and says nothing of unpacking',
  );
});

test('a broken manifest stops the start with one line naming the file and the problem', async (t) => {
  const loaderPath = await writePlugins([
    { manifest: { name: 'Bad Name', version: 'one', main: 'index.ts', service: 'search' }, files: {} },
  ]);
  const file = path.join(loaderPath, 'Bad Name', 'plugin.json');
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.true(error!.message.startsWith(`${file}: `));
  t.regex(error!.message, /runtime is required/);
  t.regex(error!.message, /name must match/);
  t.regex(error!.message, /version must match/);
  t.false(error!.message.includes('\n'));
});

test('a manifest that is not JSON is named', async (t) => {
  const loaderPath = tmp();
  const dir = path.join(loaderPath, 'broken');
  (await import('node:fs')).mkdirSync(dir);
  writeFileSync(path.join(dir, 'plugin.json'), '{"name": ');
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.regex(error!.message, new RegExp(`^${dir.replace(/[/\\]/g, '\\$&')}/plugin\\.json: is not valid JSON`));
});

test('a plugin that needs another runtime version is refused', async (t) => {
  const loaderPath = await writePlugins([routePlugin('future', { runtime: '^9.0.0' })]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is(
    error?.message,
    `${path.join(loaderPath, 'future', 'plugin.json')}: plugin needs runtime ^9.0.0, this runtime is 1.0.0`,
  );
});

test('a plugin whose main does not export a definition is named', async (t) => {
  const loaderPath = await writePlugins([
    { manifest: manifest('empty'), files: { 'index.ts': 'export const x = 1;' } },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.regex(error!.message, /empty\/plugin\.json: main \.\/index\.ts must export default a plugin definition/);
});

test('a plugin that is not on the loader path contributes nothing: its routes answer 404', async (t) => {
  const loaderPath = await writePlugins([routePlugin('present'), routePlugin('absent', { service: 'connector' })]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath], plugins: ['present'] });
  t.teardown(() => vela.stop());
  t.is((await vela.fetch('search', '/present')).status, 200);
  const absent = await vela.fetch('search', '/absent');
  t.is(absent.status, 404);
  t.deepEqual(await absent.json(), { error: 'not_found', message: 'no route for GET /absent on the search service' });
  t.false(vela.runtime.services.has('connector'), 'no plugin mounts into connector, so it does not listen');
});

test('the same plugin twice on the loader path is refused by name', async (t) => {
  const a = await writePlugins([routePlugin('twin')]);
  const b = await writePlugins([routePlugin('twin')]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [a, b] }));
  t.is(
    error?.message,
    `plugin "twin" is found twice on the loader path: ${path.join(a, 'twin')} and ${path.join(b, 'twin')}`,
  );
});

test('scanning without strictness collects every problem (vela plugins)', async (t) => {
  const loaderPath = await writePlugins([routePlugin('fine'), { manifest: { name: 'nope' }, files: {} }]);
  const result = await scanLoaderPath([loaderPath, '/does/not/exist'], path.join(tmp(), 'cache'), false);
  t.deepEqual(
    result.plugins.map((p) => p.manifest.name),
    ['fine'],
  );
  t.is(result.problems.length, 2);
  t.true(existsSync(path.join(loaderPath, 'nope')));
});
