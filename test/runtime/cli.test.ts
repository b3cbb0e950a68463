import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { packageRoot } from '../../runtime/paths.js';
import { childEnv, runVela, startChildRuntime } from '../../runtime/testing/child-runtime.js';
import { copyPlugin, manifest, writePlugins } from '../../runtime/testing/test-runtime.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-cli-'));
const run = (args: string[], env = childEnv()) => runVela(args, env, tmp());
const startChild = (args: string[], env = childEnv()) => startChildRuntime(args, env, tmp());

test('an unknown flag prints the usage and exits with code 2', async (t) => {
  const result = await run(['start', '--colour', 'blue']);
  t.is(result.code, 2);
  t.regex(result.stderr, /^vela: Unknown option '--colour'/);
  t.regex(result.stderr, /Usage: vela <command> \[options\]/);
  const help = await run(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: vela/);
  t.is((await run(['pack'])).code, 2, 'pack without a plugin is a usage error');
  const unknownCommand = await run(['launch']);
  t.is(unknownCommand.code, 2);
  t.regex(unknownCommand.stderr, /unknown command "launch"/);
});

test('a broken manifest exits non-zero with one line naming the file', async (t) => {
  const loaderPath = await writePlugins([{ manifest: { name: 'broken', version: '1.0.0' }, files: {} }]);
  const result = await run(['start', '--loader-path', loaderPath, '--data-dir', tmp()]);
  t.is(result.code, 1);
  const lines = result.stderr.trim().split('\n');
  t.is(lines.length, 1);
  t.is(
    lines[0],
    `vela: ${path.join(loaderPath, 'broken', 'plugin.json')}: runtime is required; main is required; service is required`,
  );
});

test('a port in use exits non-zero with one line naming the service and the port', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as net.AddressInfo).port;
  const result = await run(
    ['start', '--plugins', 'gateway', '--data-dir', tmp()],
    childEnv({ VELA_GATEWAY_PORT: String(port) }),
  );
  t.is(result.code, 1);
  t.is(
    result.stderr.trim(),
    `vela: the gateway service cannot listen on 127.0.0.1:${port}: the port is already in use`,
  );
});

test('vela start serves the three services, and stops cleanly on SIGTERM', async (t) => {
  const vela = await startChild(['--data-dir', tmp()]);
  t.deepEqual(Object.keys(vela.urls).sort(), ['connector', 'gateway', 'search']);
  for (const url of Object.values(vela.urls)) t.is((await fetch(`${url}/health`)).status, 200);
  const result = await vela.stop('SIGTERM');
  t.is(result.code, 0);
  t.regex(result.stdout, /"msg":"stopped"/);
});

test('a signal during a slow start stops the runtime gracefully once the start has settled', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('slow-ready', { service: 'connector' }),
      files: {
        'index.ts': `export default { register(ctx) {
      ctx.hooks.tapPromise('runtime.ready', 'slow', async () => {
        await new Promise((done) => setTimeout(done, 1500));
        ctx.logger.info('slow ready done');
      });
    } };`,
      },
    },
  ]);
  const vela = await startChild(['--loader-path', loaderPath, '--data-dir', tmp()]);
  // The boot tree is logged before the ready taps run: this SIGTERM lands in the middle of the start.
  const result = await vela.stop('SIGTERM');
  t.is(result.signal, null, 'not killed by the default signal handler');
  t.is(result.code, 0);
  const messages = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  t.true(messages.indexOf('slow ready done') < messages.indexOf('stopping'), 'the stop waited for the start');
  t.true(messages.includes('stopped'));
});

test('an external plugin folder and a packed archive given with --loader-path are loaded', async (t) => {
  const external = await copyPlugin(path.join(packageRoot, 'docs', 'examples', 'greeter'));
  const archiveSource = await writePlugins([
    {
      manifest: manifest('archived', { service: 'connector', version: '0.3.0' }),
      files: {
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/archived', { access: 'public' }, (_q, res) => res.json({ from: 'archive' }))); } };`,
      },
    },
  ]);
  const archives = tmp();
  const packed = await run(['pack', path.join(archiveSource, 'archived'), '--out', archives]);
  t.is(packed.code, 0, packed.stderr);
  t.is(packed.stdout.trim(), path.join(archives, 'archived-0.3.0.tgz'));

  const listed = await run(['plugins', '--loader-path', `${external},${archives}`, '--data-dir', tmp()]);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /^NAME\s+VERSION\s+SERVICE\s+KIND\s+STATUS\s+PATH/);
  t.regex(listed.stdout, /greeter\s+1\.2\.0\s+search\s+folder\s+valid/);
  t.regex(listed.stdout, /archived\s+0\.3\.0\s+connector\s+archive\s+valid/);

  const vela = await startChild(['--loader-path', `${external},${archives}`, '--data-dir', tmp()]);
  t.teardown(() => vela.stop());
  t.deepEqual(vela.plugins.sort(), ['archived', 'greeter']);
  t.deepEqual(await (await fetch(`${vela.urls.search}/api/greeter/hello?name=CLI`)).json(), {
    name: 'CLI',
    text: 'Hello, CLI!',
  });
  t.deepEqual(await (await fetch(`${vela.urls.connector}/archived`)).json(), { from: 'archive' });
});

test('vela plugins marks an invalid manifest and exits 1', async (t) => {
  const loaderPath = await writePlugins([
    { manifest: manifest('ok'), files: { 'index.ts': 'export default { register() {} };' } },
    { manifest: { name: 'bad' }, files: {} },
  ]);
  const result = await run(['plugins', '--loader-path', loaderPath, '--data-dir', tmp()]);
  t.is(result.code, 1);
  t.regex(result.stdout, /ok\s+1\.0\.0\s+search\s+folder\s+valid/);
  t.regex(result.stdout, /invalid: .*bad\/plugin\.json: version is required/);
});

test('vela migrate applies migrations and exits', async (t) => {
  const dataDir = tmp();
  const result = await run(['migrate', '--data-dir', dataDir]);
  t.is(result.code, 0, result.stderr);
  const line = /migrations are up to date for (.*)/.exec(result.stdout)?.[1] ?? '';
  // The runtime's own, then every bundled plugin's (a plugin without migrations is up to date too).
  const bundled = readdirSync(path.join(packageRoot, 'plugins')).filter((name) =>
    existsSync(path.join(packageRoot, 'plugins', name, 'plugin.json')),
  );
  t.deepEqual(line.split(', ').sort(), ['runtime', ...bundled].sort());
});
