import test from 'ava';
import type { Accounts } from '../../runtime/auth/accounts.js';
import { parseBasic } from '../../runtime/auth/accounts.js';
import { hashPassword, verifyPassword } from '../../runtime/auth/password.js';
import { startTestRuntime } from '../../runtime/testing/test-runtime.js';

test('passwords are stored as salted scrypt hashes and verified', async (t) => {
  const hash = await hashPassword('correct horse');
  t.regex(hash, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  t.not(hash, await hashPassword('correct horse'), 'salted');
  t.true(await verifyPassword('correct horse', hash));
  t.false(await verifyPassword('wrong horse', hash));
  t.false(await verifyPassword('x', 'plain-text'));
});

test('without a configured password, the administrator gets a generated one, logged once and stored hashed', async (t) => {
  const vela = await startTestRuntime({
    plugins: ['search'],
    config: { runtime: { admin: { user: 'root', password: null } } },
  });
  const lines = vela.logs.filter((l) => l.msg.includes('generated password'));
  t.is(lines.length, 1);
  const password = /shown only this once\): (\S+)$/.exec(lines[0]!.msg)![1]!;
  t.true(password.length >= 20);
  const row = await vela.runtime.db('runtime_users').where({ username: 'root' }).first();
  t.false(JSON.stringify(row).includes(password), 'only the hash is stored');
  const accounts = vela.runtime.resolve<Accounts>('accounts');
  t.deepEqual(await accounts.authenticate('root', password), { id: row.id, username: 'root', role: 'admin' });
  t.is(await accounts.authenticate('root', 'guess'), null);
  t.is(await accounts.authenticate('nobody', password), null);
  const dataDir = vela.dataDir;
  await vela.runtime.stop();

  const again = await startTestRuntime({
    plugins: ['search'],
    dataDir,
    config: { runtime: { admin: { user: 'root', password: null } } },
  });
  t.teardown(() => again.stop());
  t.is(
    again.logs.filter((l) => l.msg.includes('generated password')).length,
    0,
    'the second start prints nothing secret',
  );
  t.truthy(await again.runtime.resolve<Accounts>('accounts').authenticate('root', password));
});

test('a configured password is applied at the first start only: a different one later keeps the stored one and warns', async (t) => {
  const first = await startTestRuntime({
    plugins: ['search'],
    config: { runtime: { admin: { user: 'ops', password: 'first-password' } } },
  });
  const dataDir = first.dataDir;
  await first.runtime.stop();
  const second = await startTestRuntime({
    plugins: ['search'],
    dataDir,
    config: { runtime: { admin: { user: 'ops', password: 'second-password' } } },
  });
  t.teardown(() => second.stop());
  const accounts = second.runtime.resolve<Accounts>('accounts');
  t.truthy(await accounts.authenticate('ops', 'first-password'), 'the stored password still signs in');
  t.is(await accounts.authenticateBasic(`Basic ${Buffer.from('ops:second-password').toString('base64')}`), null);
  const warnings = second.logs.filter((l) => l.level === 40 && l.msg.includes('differs from the stored one'));
  t.is(warnings.length, 1);
  t.regex(warnings[0]!.msg, /vela admin reset-password/);
  t.false(JSON.stringify(second.logs).includes('second-password'), 'neither password is logged');
  t.false(JSON.stringify(second.logs).includes('first-password'));
});

test('Basic credentials are parsed, and malformed ones are refused', (t) => {
  t.deepEqual(parseBasic(`Basic ${Buffer.from('admin:pa:ss').toString('base64')}`), {
    username: 'admin',
    password: 'pa:ss',
  });
  t.is(parseBasic('Bearer abc'), null);
  t.is(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`), null);
  t.is(parseBasic(undefined), null);
  // RFC 7617 allows no control character in either; PostgreSQL fails a query holding NUL.
  for (const credentials of [
    'ad\u0000min:secret',
    'admin:sec\u0000ret',
    'ad\tmin:secret',
    'ad\u007fmin:secret',
    `${'u'.repeat(65)}:secret`,
  ]) {
    t.is(parseBasic(`Basic ${Buffer.from(credentials).toString('base64')}`), null, JSON.stringify(credentials));
  }
});
