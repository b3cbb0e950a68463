import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { eventually } from '../../runtime/testing/eventually.js';
import { manifest, type PluginFixture, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

const journalFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'vela-journal-')), 'journal.txt');

/** A plugin that appends each phase it goes through to a shared journal file. */
const journaling = (
  name: string,
  journal: string,
  extra: Record<string, unknown> = {},
  migrations = false,
): PluginFixture => ({
  manifest: manifest(name, { ...extra, ...(migrations ? { migrations: './migrations' } : {}) }),
  files: {
    'index.ts': `
      import { appendFileSync } from 'node:fs';
      const log = (s: string) => appendFileSync(${JSON.stringify(journal)}, s + '\\n');
      export default {
        register(ctx) {
          log('${name}:register');
          ctx.hooks.tapPromise('runtime.ready', 'journal', async () => log('${name}:ready'));
          ctx.hooks.tapPromise('runtime.shutdown', 'journal', async () => log('${name}:shutdown'));
          return {
            async start() { log('${name}:start'); },
            async stop() { log('${name}:stop'); },
          };
        },
      };`,
    ...(migrations
      ? {
          'migrations/001_t.ts': `import { appendFileSync } from 'node:fs';
      export async function up(db) { appendFileSync(${JSON.stringify(journal)}, '${name}:migrate\\n'); await db.schema.createTable('${name}_t', (t) => { t.increments('id'); }); }
      export async function down(db) { await db.schema.dropTable('${name}_t'); }`,
        }
      : {}),
  },
});

test('phases run register → migrate → start → ready, and stop runs in reverse dependency order', async (t) => {
  const journal = journalFile();
  const loaderPath = await writePlugins([
    journaling('base', journal, {}, true),
    journaling('middle', journal, { dependsOn: ['base'] }, true),
    journaling('top', journal, { dependsOn: ['middle'], service: 'gateway' }),
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  await vela.stop();
  const lines = readFileSync(journal, 'utf8').trim().split('\n');
  t.deepEqual(lines, [
    'base:register',
    'middle:register',
    'top:register',
    'base:migrate',
    'middle:migrate',
    'base:start',
    'middle:start',
    'top:start',
    'base:ready',
    'middle:ready',
    'top:ready',
    'base:shutdown',
    'middle:shutdown',
    'top:shutdown',
    'top:stop',
    'middle:stop',
    'base:stop',
  ]);
  t.is(vela.runtime.status, 'stopped');
});

test('the boot tree lists each service with its plugins and phase times', async (t) => {
  const journal = journalFile();
  const loaderPath = await writePlugins([
    journaling('one', journal, {}, true),
    journaling('two', journal, { service: 'gateway' }),
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  const tree = vela.runtime.tree()!;
  t.deepEqual(
    tree.services.map((s) => [s.name, s.plugins.map((p) => p.plugin)]),
    [
      ['search', ['one']],
      ['gateway', ['two']],
    ],
  );
  const one = tree.services[0]!.plugins[0]!;
  t.true(typeof one.ms.register === 'number' && typeof one.ms.migrate === 'number' && typeof one.ms.start === 'number');
  const logged = vela.logs.find((l) => l.msg.startsWith('vela started in'));
  t.truthy(logged);
  t.regex(
    logged!.msg,
    /├─ search http:\/\/127\.0\.0\.1:\d+\n│ {2}└─ one@1\.0\.0 {2}register [\d.]+ ms, migrate [\d.]+ ms, start [\d.]+ ms/,
  );
});

test('stop lets an in-flight request finish, then closes the listener', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('slow'),
      files: {
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/slow', { access: 'public' }, async (_q, res) => { globalThis.slowRequestArrived = true; await new Promise((ok) => setTimeout(ok, 400)); res.json({ done: true }); })); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  const url = vela.url('search', '/slow');
  const inFlight = fetch(url);
  // Stop only once the request is in its handler (the plugin runs in this process), however loaded the machine is.
  await eventually(
    () => (globalThis as { slowRequestArrived?: boolean }).slowRequestArrived === true,
    'the slow request to arrive',
  );
  const stopping = vela.stop();
  const response = await inFlight;
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { done: true });
  await stopping;
  await t.throwsAsync(fetch(url), undefined, 'no longer listening');
});

test('a plugin whose start hangs is stopped at the phase deadline and named', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('stuck'),
      files: { 'index.ts': 'export default { register: () => ({ start: () => new Promise(() => {}) }) };' },
    },
  ]);
  const error = await t.throwsAsync(
    startTestRuntime({ loaderPath: [loaderPath], config: { runtime: { phaseTimeoutMs: 300 } } }),
  );
  t.is(error?.message, 'plugin "stuck" did not finish start within 300 ms');
});

test('a plugin whose start throws fails the start with its manifest named, and started plugins are stopped', async (t) => {
  const journal = journalFile();
  const loaderPath = await writePlugins([
    journaling('good', journal),
    {
      manifest: manifest('boom', { dependsOn: ['good'] }),
      files: {
        'index.ts': 'export default { register: () => ({ async start() { throw new Error("disk full"); } }) };',
      },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is(error?.message, `${path.join(loaderPath, 'boom', 'plugin.json')}: start failed: disk full`);
  t.true(readFileSync(journal, 'utf8').includes('good:stop'));
});

test("an error thrown in register names the plugin's manifest", async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('clumsy'),
      files: { 'index.ts': 'export default { register() { throw new Error("oops"); } };' },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is(error?.message, `${path.join(loaderPath, 'clumsy', 'plugin.json')}: register failed: oops`);
});

test('register must be synchronous', async (t) => {
  const loaderPath = await writePlugins([
    { manifest: manifest('eager'), files: { 'index.ts': 'export default { async register() {} };' } },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.regex(error!.message, /eager\/plugin\.json: register\(\) must be synchronous/);
});

test('a port already in use fails the start naming the service and the port', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as net.AddressInfo).port;
  const loaderPath = await writePlugins([journaling('p', journalFile())]);
  const error = await t.throwsAsync(
    startTestRuntime({ loaderPath: [loaderPath], config: { services: { search: { port } } } }),
  );
  t.is(error?.message, `the search service cannot listen on 127.0.0.1:${port}: the port is already in use`);
});

test('one runtime serves the three bundled services on their own listeners', async (t) => {
  const vela = await startTestRuntime();
  t.teardown(() => vela.stop());
  for (const service of ['gateway', 'search', 'connector']) {
    const response = await vela.fetch(service, '/health');
    t.is(response.status, 200, service);
    const body = (await response.json()) as { status: string; service: string; plugins: Record<string, unknown> };
    t.is(body.status, 'UP');
    t.is(body.service, service);
    t.truthy(body.plugins[service]);
  }
  t.deepEqual(await (await vela.fetch('connector', '/status')).json(), { status: 'ok' });
  const ports = new Set(['gateway', 'search', 'connector'].map((s) => new URL(vela.url(s)).port));
  t.is(ports.size, 3);
});
