import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import {
  manifest,
  packageRoot,
  startTestRuntime,
  startTestRuntimeFor,
  type TestRuntime,
  writePlugins,
} from 'vela/testing';
import { checkPluginBoundaries } from '../../../scripts/lint/plugin-boundaries.js';
import { answersAsMemory, sampleOnEach } from './engine-answers.js';
import { QUERIES } from './fixtures/engine-parity.js';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

// A search engine provided by a plugin of its own (an OpenSearch adapter would be one): it taps the
// search plugin's `search.engines` hook, and `"engine": "<its name>"` makes the search service use it.
const enginePlugin = {
  manifest: manifest('brute-engine', { service: 'search', dependsOn: ['search'] }),
  files: {
    // The contract as a type-only devDependency, as the plugin-boundaries rule asks of a plugin in its own package.
    'package.json': JSON.stringify({
      name: 'brute-engine',
      type: 'module',
      devDependencies: { '@vela/plugin-search': '1.0.0' },
    }),
    'index.ts': readFileSync(new URL('./fixtures/brute-force-engine-plugin.ts', import.meta.url), 'utf8'),
  },
};

const BRUTE_FORCE = { plugins: { search: { engine: 'brute-force', indexer: { snapshotDelayMs: 0 } } } };

async function loaderPath(): Promise<string[]> {
  const dir = await writePlugins([enginePlugin]);
  return [path.join(packageRoot, 'plugins'), dir];
}

/** The fixture plugin's counters, from its health check on the search service. */
async function engineCounters(
  vela: TestRuntime,
): Promise<{ engines: number; restored: number; queries: number; upserted: number }> {
  return findCheck(await (await vela.fetch('search', '/health')).json(), 'brute-engine', 'engine').details;
}

function findCheck(health: any, plugin: string, name: string): any {
  const check = (health.plugins?.[plugin]?.checks ?? []).find((c: any) => c.name === name);
  if (!check) throw new Error(`no health check ${plugin}/${name} in ${JSON.stringify(health)}`);
  return check;
}

test('an engine plugin registers its engine through search.engines, and the search service answers through it as through the memory engine', async (t) => {
  t.timeout(60_000);
  const paths = await loaderPath();
  // The plugin keeps the boundary rule: the search plugin only through `import type` of its contract.
  t.deepEqual(checkPluginBoundaries(path.join(paths[1]!, 'brute-engine')), []);

  const memory = await startTestRuntimeFor(t, { plugins: ['search'] });
  const brute = await startTestRuntimeFor(t, {
    plugins: ['search', 'brute-engine'],
    loaderPath: paths,
    config: BRUTE_FORCE,
  });
  t.deepEqual(
    brute.runtime.hookBus.describe().find((h) => h.name === 'search.engines'),
    { name: 'search.engines', owner: 'search', taps: ['brute-engine:brute-force'] },
  );

  const docs = makeDocs(200);
  await sampleOnEach(t, [memory, brute], docs);
  const before = await engineCounters(brute);
  t.true(before.engines >= 1);
  t.is(before.upserted, 200);
  await answersAsMemory(t, memory, brute);
  // Every search above ran on the plugin's engine ("pyth" twice: the prefix retry after no hits).
  t.true((await engineCounters(brute)).queries >= before.queries + QUERIES.length);

  // Writes reach it too: a deleted document is no longer found.
  const deleted = await json(brute, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } },
    ],
  });
  t.is(deleted.status, 200, JSON.stringify(deleted.body));
  const all = await search(brute, 'q=*&rows=1000&_setlocale=en_US');
  t.is(all.body.queryContext.count, 199);
  t.false(all.body.results.document.some((d: any) => d.fields.id === docs[0]!.id));
});

test("an engine plugin's indexes are snapshotted in their own folder and restored by its factory at the next start", async (t) => {
  t.timeout(60_000);
  const paths = await loaderPath();
  const config = { plugins: { search: { engine: 'brute-force', indexer: { snapshotDelayMs: 20 } } } };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-engine-plugin-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestRuntime({ plugins: ['search', 'brute-engine'], loaderPath: paths, config, dataDir });
  let stopped = false;
  t.teardown(async () => {
    if (!stopped) await first.stop();
  });
  await createSite(first);
  t.is((await importDocs(first, makeDocs(30))).accepted, 30);
  // The stop writes what the quiet time has not yet written.
  await first.stop();
  stopped = true;
  t.true(existsSync(path.join(dataDir, 'search', 'snapshots-brute-force')));
  t.false(existsSync(path.join(dataDir, 'search', 'snapshots')));

  const second = await startTestRuntimeFor(t, {
    plugins: ['search', 'brute-engine'],
    loaderPath: paths,
    config,
    dataDir,
  });
  const loaded = second.logs.find((l) => l.msg === 'search indexes loaded');
  t.not(loaded?.snapshot, null, JSON.stringify(loaded));
  // Every engine (one per locale of the site) restored by the plugin's factory, none rebuilt from the store.
  const counters = await engineCounters(second);
  t.true(counters.restored >= 1);
  t.is(counters.restored, counters.engines);
  t.is(counters.upserted, 30);
  t.is((await search(second, 'q=*&rows=100&_setlocale=en_US')).body.queryContext.count, 30);
});

test('an engine name nobody registered stops the start with one error that lists the registered engines', async (t) => {
  t.timeout(60_000);
  const paths = await loaderPath();
  const error = await t.throwsAsync(
    startTestRuntime({
      plugins: ['search', 'brute-engine'],
      loaderPath: paths,
      config: { plugins: { search: { engine: 'opensearch' } } },
    }),
  );
  t.regex(
    String(error?.message),
    /"engine": "opensearch" is no registered search engine; the registered ones are "brute-force", "memory" /,
  );

  // Without the plugin its name is just as unknown.
  const alone = await t.throwsAsync(startTestRuntime({ plugins: ['search'], config: BRUTE_FORCE }));
  t.regex(
    String(alone?.message),
    /"engine": "brute-force" is no registered search engine; the registered ones are "memory" /,
  );
});

test('an engine plugin cannot take a built-in name', async (t) => {
  t.timeout(60_000);
  const dir = await writePlugins([
    {
      manifest: manifest('memory-thief', { service: 'search', dependsOn: ['search'] }),
      files: {
        'package.json': JSON.stringify({ type: 'module' }),
        'index.ts': `
          export default {
            register(ctx) {
              ctx.hooks.tap('search.engines', 'memory', (engines) => engines.register('memory', { create() {}, async restore() {} }));
            },
          };
        `,
      },
    },
  ]);
  const error = await t.throwsAsync(
    startTestRuntime({ plugins: ['search', 'memory-thief'], loaderPath: [path.join(packageRoot, 'plugins'), dir] }),
  );
  t.regex(String(error?.message), /search engine "memory" is registered twice/);
});
