import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Accounts } from '../../runtime/auth/accounts.js';
import { childEnv, runVela, startChildRuntime, VELA_BIN } from '../../runtime/testing/child-runtime.js';
import { createTestPostgres, postgresReachable } from '../../runtime/testing/test-postgres.js';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'vela-admin-'));
/** A child's environment without a configured password: the command reads standard input, a start generates one. */
const noPassword = (extra: Record<string, string> = {}) => childEnv({ VELA_ADMIN_PASSWORD: '', ...extra });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

test('vela admin reset-password reads the new password from standard input, never from the command line, and ends the sessions', async (t) => {
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestRuntime({
    plugins: ['gateway'],
    dataDir,
    config: { runtime: { admin: { password: 'old-password-1' } } },
  });
  const accounts = first.runtime.resolve<Accounts>('accounts');
  const session = await accounts.createSession((await accounts.find('admin'))!);
  await first.runtime.stop();

  const inArgv = await runVela(
    ['admin', 'reset-password', 'new-password-2', '--data-dir', dataDir],
    noPassword(),
    dataDir,
    '',
  );
  t.is(inArgv.code, 2, 'a password on the command line is bad usage');
  t.regex(inArgv.stderr, /standard input or VELA_ADMIN_PASSWORD/);
  const short = await runVela(['admin', 'reset-password', '--data-dir', dataDir], noPassword(), dataDir, 'short\n');
  t.is(short.code, 1);
  t.regex(short.stderr, /at least 8 characters long; nothing changed/);
  const unknown = await runVela(
    ['admin', 'reset-password', '--user', 'nobody', '--data-dir', dataDir],
    noPassword(),
    dataDir,
    'new-password-2\n',
  );
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /has no account "nobody"/);
  const nowhere = await runVela(
    ['admin', 'reset-password', '--data-dir', tmp()],
    noPassword(),
    dataDir,
    'new-password-2\n',
  );
  t.is(nowhere.code, 1);
  t.regex(nowhere.stderr, /there is no database at .*vela\.sqlite: start vela once first/);

  const reset = await runVela(
    ['admin', 'reset-password', '--data-dir', dataDir],
    noPassword(),
    dataDir,
    'new-password-2\nignored\n',
  );
  t.is(reset.code, 0, reset.stderr);
  t.is(
    reset.stdout.trim(),
    `the password of "admin" is reset in ${path.join(dataDir, 'vela.sqlite')}; 1 console session ended`,
  );
  t.false(`${reset.stdout}${reset.stderr}`.includes('new-password-2'), 'the password is not echoed');

  const again = await startTestRuntime({
    plugins: ['gateway'],
    dataDir,
    config: { runtime: { admin: { password: null } } },
  });
  t.teardown(() => again.runtime.stop());
  const after = again.runtime.resolve<Accounts>('accounts');
  t.truthy(await after.authenticate('admin', 'new-password-2'));
  t.is(await after.authenticate('admin', 'old-password-1'), null);
  t.is(await after.findSession(session.token), null, 'the session opened with the old password has ended');
  t.is(
    (await again.fetch('gateway', '/api/v2/mapping', { headers: { authorization: basic('admin', 'new-password-2') } }))
      .status,
    200,
  );
});

(postgresReachable() ? test : test.skip)(
  'vela admin reset-password takes VELA_ADMIN_PASSWORD on PostgreSQL (DATABASE_URL)',
  async (t) => {
    const pg = await createTestPostgres();
    if (!pg) return t.fail('PostgreSQL refused to create a test database');
    t.teardown(() => pg.drop());
    const first = await startTestRuntime({ plugins: ['gateway'], databaseUrl: pg.url });
    await first.stop();
    const env = childEnv({ VELA_ADMIN_PASSWORD: 'from-the-environment' });
    env.DATABASE_URL = pg.url;
    const dataDir = tmp();
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    const reset = await runVela(['admin', 'reset-password', '--data-dir', dataDir], env, dataDir, '');
    t.is(reset.code, 0, reset.stderr);
    t.regex(
      reset.stdout,
      /^the password of "admin" is reset in the PostgreSQL database vela_test_\w+ on 127\.0\.0\.1(:5432)?; 0 console sessions ended/,
    );
    const again = await startTestRuntime({
      plugins: ['gateway'],
      databaseUrl: pg.url,
      config: { runtime: { admin: { password: null } } },
    });
    t.teardown(() => again.stop());
    t.truthy(await again.runtime.resolve<Accounts>('accounts').authenticate('admin', 'from-the-environment'));
  },
);

test('a port in use stops the first start before anything is created, and the start that comes up shows the generated password', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
  const port = (blocker.address() as net.AddressInfo).port;
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const args = ['--plugins', 'gateway', '--no-seed', '--data-dir', dataDir];
  const failed = await runVela(['start', ...args], noPassword({ VELA_GATEWAY_PORT: String(port) }), dataDir);
  await new Promise<void>((done) => blocker.close(() => done()));
  t.is(failed.code, 1);
  t.is(
    failed.stderr.trim(),
    `vela: the gateway service cannot listen on 127.0.0.1:${port}: the port is already in use`,
  );
  t.false(failed.stdout.includes('generated password'), 'no password is shown by a start that did not come up');
  t.false(existsSync(path.join(dataDir, 'vela.sqlite')), 'no database, no administrator created');

  const vela = await startChildRuntime(args, noPassword(), dataDir);
  t.teardown(() => vela.stop());
  const password = await new Promise<string>((resolve) => {
    const look = () => {
      const found = /generated password \(shown only this once\): (\S+?)"/.exec(vela.output());
      if (found) resolve(found[1]!);
      else setTimeout(look, 50);
    };
    look();
  });
  t.is(
    (await fetch(`${vela.urls.gateway}/api/v2/mapping`, { headers: { authorization: basic('admin', password) } }))
      .status,
    200,
  );
});

test('a start that fails after creating the administrator takes it back, and the next start shows a new password', async (t) => {
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const loaderPath = await writePlugins([
    {
      manifest: manifest('failing', { service: 'gateway' }),
      files: {
        'index.ts': `export default { register() { return { start() { throw new Error('cannot start'); } }; } };`,
      },
    },
  ]);
  const generated = { runtime: { admin: { password: null } } };
  await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath], dataDir, config: generated }), {
    message: /start failed: cannot start/,
  });

  const vela = await startTestRuntime({ plugins: ['gateway'], dataDir, config: generated });
  t.teardown(() => vela.runtime.stop());
  const lines = vela.logs.filter((l) => l.msg.includes('generated password'));
  t.is(lines.length, 1, 'the start that came up shows a password');
  const password = /shown only this once\): (\S+)$/.exec(lines[0]!.msg)![1]!;
  t.truthy(await vela.runtime.resolve<Accounts>('accounts').authenticate('admin', password));
});

test('with several worker processes, a generated password is shown once they serve, and taken back when one cannot start', async (t) => {
  const dataDir = tmp();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const loaderPath = await writePlugins([
    {
      manifest: manifest('failing', { service: 'gateway' }),
      files: {
        'index.ts': `export default { register() { return { start() { throw new Error('cannot start'); } }; } };`,
      },
    },
  ]);
  const failed = await runVela(
    ['start', '--workers', '2', '--no-seed', '--loader-path', loaderPath, '--data-dir', dataDir],
    noPassword(),
    dataDir,
  );
  t.is(failed.code, 1, failed.stderr);
  t.regex(failed.stdout, /a worker failed to start/);
  t.false(failed.stdout.includes('generated password'), 'no password is shown by a start that did not come up');

  const vela = await startTestRuntime({
    plugins: ['gateway'],
    dataDir,
    config: { runtime: { admin: { password: null } } },
  });
  t.teardown(() => vela.runtime.stop());
  t.is(
    vela.logs.filter((l) => l.msg.includes('generated password')).length,
    1,
    'the next start generates and shows one',
  );
});

/** util-linux's `script` runs a command on a pseudo-terminal: what an operator's terminal is to the command. */
const SCRIPT = '/usr/bin/script';

// Without util-linux's script there is no terminal to give the command: the test is skipped, and says so.
(existsSync(SCRIPT) ? test : test.skip)(
  'on a terminal, vela admin reset-password asks twice and echoes nothing',
  async (t) => {
    const dataDir = tmp();
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startTestRuntime({ plugins: ['gateway'], dataDir });
    await first.runtime.stop();
    const command = `'${process.execPath}' '${VELA_BIN}' admin reset-password --data-dir '${dataDir}'`;
    const run = (answers: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], { env: noPassword(), cwd: dataDir });
        let out = '';
        let asked = 0;
        child.stdout.on('data', (data: Buffer) => {
          out += data;
          // Each answer is typed once its prompt is on the screen, as a person would.
          const prompts = (out.match(/New password for "admin": |Repeat it: /g) ?? []).length;
          while (asked < prompts && asked < answers.length) child.stdin.write(`${answers[asked++]}\r`);
        });
        child.on('close', (code) => resolve({ code, out }));
      });
    const differ = await run(['typed-secret-1', 'typed-secret-2']);
    t.is(differ.code, 1);
    t.regex(differ.out, /the two passwords differ; nothing changed/);
    const typed = await run(['typed-secret-1', 'typed-secret-1']);
    t.is(typed.code, 0, typed.out);
    t.regex(typed.out, /New password for "admin": \r?\nRepeat it: \r?\nthe password of "admin" is reset/);
    t.false(typed.out.includes('typed-secret'), 'nothing typed is echoed');
    const again = await startTestRuntime({
      plugins: ['gateway'],
      dataDir,
      config: { runtime: { admin: { password: null } } },
    });
    t.teardown(() => again.runtime.stop());
    t.truthy(await again.runtime.resolve<Accounts>('accounts').authenticate('admin', 'typed-secret-1'));
  },
);
