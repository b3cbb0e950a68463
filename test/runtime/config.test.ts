import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { type JsonSchema, validateAgainst } from '../../runtime/config/schema-validation.js';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-config-'));

test('defaults give the three services their ports and ./data under the working directory', (t) => {
  const cwd = tmp();
  const config = loadConfig({ env: {}, cwd });
  t.is(config.services.gateway!.port, 2702);
  t.is(config.services.search!.port, 2700);
  t.is(config.services.connector!.port, 30130);
  t.is(config.runtime.dataDir, path.join(cwd, 'data'));
  t.is(config.services.search!.bodyLimit, '1mb', 'schema defaults are filled');
  t.deepEqual(config.services.search!.cors.origins, ['*']);
});

test('layers apply in order: defaults, config file, environment, flags', (t) => {
  const dir = tmp();
  const file = path.join(dir, 'vela.json');
  writeFileSync(
    file,
    JSON.stringify({ runtime: { dataDir: 'from-file', logLevel: 'warn' }, services: { search: { port: 1111 } } }),
  );
  const fileOnly = loadConfig({ env: {}, cwd: dir, flags: { configFile: file } });
  t.is(fileOnly.runtime.dataDir, path.join(dir, 'from-file'), 'relative paths in a file resolve against its folder');
  t.is(fileOnly.services.search!.port, 1111);
  t.is(fileOnly.services.gateway!.port, 2702, 'objects merge member by member');

  const withEnv = loadConfig({
    cwd: dir,
    flags: { configFile: file },
    env: { VELA_SEARCH_PORT: '2222', VELA_DATA_DIR: 'from-env', DATABASE_URL: 'postgres://u@h:5432/d' },
  });
  t.is(withEnv.services.search!.port, 2222);
  t.is(withEnv.runtime.dataDir, path.join(dir, 'from-env'));
  t.is(withEnv.runtime.database.url, 'postgres://u@h:5432/d');
  t.is(withEnv.runtime.logLevel, 'warn');

  const withFlags = loadConfig({
    cwd: dir,
    flags: { configFile: file, dataDir: 'from-flag', loaderPath: ['a', 'b'] },
    env: { VELA_DATA_DIR: 'from-env', VELA_LOADER_PATH: 'x' },
  });
  t.is(withFlags.runtime.dataDir, path.join(dir, 'from-flag'));
  t.deepEqual(withFlags.runtime.loaderPath, [path.join(dir, 'a'), path.join(dir, 'b')]);
});

test('a bad environment port names the variable and the value', (t) => {
  const error = t.throws(() => loadConfig({ env: { VELA_GATEWAY_PORT: 'eighty' } }));
  t.is(
    error?.message,
    'invalid configuration (environment): VELA_GATEWAY_PORT (services.gateway.port) must be a port number from 0 to 65535, got "eighty"',
  );
});

test('an unknown or mistyped runtime setting names the key, the value and the expectation', (t) => {
  const dir = tmp();
  const file = path.join(dir, 'bad.json');
  writeFileSync(
    file,
    JSON.stringify({
      runtime: { logLevel: 'loud', shutdownTimeoutMs: 'soon' },
      services: { search: { port: 70000 } },
      extra: 1,
    }),
  );
  const error = t.throws(() => loadConfig({ env: {}, flags: { configFile: file } }));
  t.regex(
    error!.message,
    /runtime\.logLevel must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent", got "loud"/,
  );
  t.regex(error!.message, /runtime\.shutdownTimeoutMs must be of type integer, got "soon"/);
  t.regex(error!.message, /services\.search\.port must be at most 65535, got 70000/);
  t.regex(error!.message, /extra is not a known member/);
});

test('a config file that is not JSON is named with the parse problem', (t) => {
  const file = path.join(tmp(), 'broken.json');
  writeFileSync(file, '{ "runtime": ');
  const error = t.throws(() => loadConfig({ env: {}, flags: { configFile: file } }));
  t.true(error!.message.startsWith(`${file}: is not valid JSON`));
});

test('validation messages name the member, the value and what was expected', (t) => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['rows'],
    properties: { rows: { type: 'integer', minimum: 1, maximum: 1000 } },
  };
  t.deepEqual(validateAgainst(schema, { rows: 'ten' }, { root: 'query' }).problems, [
    'query.rows must be of type integer, got "ten"',
  ]);
  t.deepEqual(validateAgainst(schema, {}, { root: 'query' }).problems, ['query.rows is required']);
  t.deepEqual(validateAgainst(schema, { rows: 5000 }).problems, ['rows must be at most 1000, got 5000']);
});

test('a plugin config section is validated by its schema before any plugin code runs', async (t) => {
  const marker = path.join(tmp(), 'ran');
  const loaderPath = await writePlugins([
    {
      manifest: manifest('tuned', { configSchema: './config.schema.json' }),
      files: {
        'config.schema.json': JSON.stringify({
          type: 'object',
          additionalProperties: false,
          properties: { rowsPerPage: { type: 'integer', minimum: 1, default: 10 } },
        }),
        'index.ts': `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x'); export default { register() {} };`,
      },
    },
  ]);
  const error = await t.throwsAsync(
    startTestRuntime({ loaderPath: [loaderPath], config: { plugins: { tuned: { rowsPerPage: 'ten' } } } }),
  );
  t.is(
    error?.message,
    'invalid configuration (plugins.tuned): plugins.tuned.rowsPerPage must be of type integer, got "ten"',
  );
  const { existsSync } = await import('node:fs');
  t.false(existsSync(marker), 'the plugin module was never imported');
});

test('plugin config defaults are filled from its schema', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('tuned', { configSchema: './config.schema.json' }),
      files: {
        'config.schema.json': JSON.stringify({
          type: 'object',
          properties: { rowsPerPage: { type: 'integer', default: 10 } },
        }),
        'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/cfg', { access: 'public' }, (_q, res) => res.json(ctx.config))); } };`,
      },
    },
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/cfg')).json(), { rowsPerPage: 10 });
});
