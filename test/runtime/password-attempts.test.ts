import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { Accounts } from '../../runtime/auth/accounts.js';
import { BoundedMap } from '../../runtime/auth/bounded-map.js';
import { addressKey, PasswordAttempts } from '../../runtime/auth/password-attempts.js';
import { createTestPostgres, postgresReachable } from '../../runtime/testing/test-postgres.js';
import { startTestRuntime, TEST_ADMIN, type TestRuntime } from '../../runtime/testing/test-runtime.js';

const limits = { perPair: 3, perAddress: 5, perUser: 4, windowSeconds: 60 };

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

test('one user name from one address may fail up to the limit, then waits until its oldest failure leaves the window', (t) => {
  const { state, now } = clock();
  const attempts = new PasswordAttempts(limits, now);
  for (let i = 0; i < 3; i += 1) {
    t.is(attempts.retryAfterSeconds('127.0.0.1', 'admin'), 0, `attempt ${i + 1}`);
    attempts.failed('127.0.0.1', 'admin', `guess-${i}`);
    state.now += 10_000;
  }
  t.is(
    attempts.retryAfterSeconds('127.0.0.1', 'Admin'),
    30,
    'the first failure leaves the window 30 s from now; names compare without case',
  );
  state.now += 30_001;
  t.is(attempts.retryAfterSeconds('127.0.0.1', 'admin'), 0);
});

test('throwaway user names from one address run into the address limit', (t) => {
  const attempts = new PasswordAttempts(limits, clock().now);
  for (let i = 0; i < 5; i += 1) attempts.failed('10.0.0.7', `name-${i}`, 'x');
  t.true(attempts.retryAfterSeconds('10.0.0.7', 'admin') > 0, 'a fresh name from the same address waits too');
  t.is(attempts.retryAfterSeconds('10.0.0.8', 'admin'), 0, 'another address does not');
});

test('a pair that just failed is known wrong (answered without hashing), and a flood of new keys stays bounded', (t) => {
  const attempts = new PasswordAttempts(limits, clock().now);
  attempts.failed('127.0.0.1', 'admin', 'nope');
  t.true(attempts.isKnownWrong('admin', 'nope'));
  t.false(attempts.isKnownWrong('admin', 'other'));
  for (let i = 0; i < 30_000; i += 1) {
    attempts.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `u${i}`, `p${i}`);
    attempts.failedUnknownName(`u${i}`);
  }
  const tables = attempts as unknown as Record<string, { size: number }>;
  for (const name of ['byPair', 'byAddress', 'byUnknownName', 'knownWrong'])
    t.true(tables[name]!.size <= 10_000, `${name}: ${tables[name]!.size}`);
});

test('an address held back stays held back while a flood from thousands of other IPv6 /64s fills the tables', (t) => {
  const { state, now } = clock();
  const attempts = new PasswordAttempts({ ...limits, perAddress: 8 }, now);
  const attacker = '2001:db8:aaaa:1:1::1';
  for (let i = 0; i < 3; i += 1) attempts.failed(attacker, 'admin', `guess-${i}`);
  for (let i = 0; i < 5; i += 1) attempts.failed(attacker, `name-${i}`, 'x');
  t.true(attempts.retryAfterSeconds(attacker, 'admin') > 0);
  t.true(attempts.retryAfterSeconds(attacker, 'someone-else') > 0, 'the /64 reached the address limit');
  // Each address of the flood is new, so every one is a new key of both tables: three times their size.
  for (let i = 0; i < 30_000; i += 1) {
    attempts.failed(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`, `throwaway-${i}`, 'x');
    state.now += 1;
  }
  t.true(
    attempts.retryAfterSeconds('2001:db8:aaaa:1:ffff::2', 'admin') > 0,
    'another address of the same /64 still waits for the pair',
  );
  t.true(attempts.retryAfterSeconds(attacker, 'yet-another') > 0, 'and for the address limit');
  const tables = attempts as unknown as Record<string, { size: number }>;
  for (const name of ['byPair', 'byAddress']) t.true(tables[name]!.size <= 10_000, `${name}: ${tables[name]!.size}`);
  state.now += 61_000;
  t.is(attempts.retryAfterSeconds(attacker, 'admin'), 0, 'once the window has passed the hold ends as usual');
});

test('a bounded map drops the oldest entry it does not keep; a kept entry whose hold ended, and never the entry just set', (t) => {
  const released = new Set<string>();
  const map = new BoundedMap<string, string>(3, (value) => value.startsWith('held') && !released.has(value));
  map.set('a', 'held-a');
  map.set('b', 'x');
  map.set('c', 'y');
  map.set('d', 'z');
  t.deepEqual(
    [map.get('a'), map.get('b'), map.size],
    ['held-a', undefined, 3],
    'the oldest entry not kept went, not the older kept one',
  );
  map.set('e', 'held-e');
  map.set('f', 'held-f');
  t.deepEqual(
    ['a', 'c', 'd', 'e', 'f'].map((key) => map.get(key) !== undefined),
    [true, false, false, true, true],
  );
  // The reads above left a as the least recently used of the kept entries.
  map.set('g', 'w');
  t.is(map.get('g'), 'w', 'a map full of kept entries still takes a newcomer');
  t.is(map.get('a'), undefined, 'in place of its least recently used kept entry');
  released.add('held-e');
  map.set('h', 'v');
  t.deepEqual(
    [map.get('e'), map.get('f'), map.get('g'), map.get('h')],
    [undefined, 'held-f', 'w', 'v'],
    'an entry whose hold ended went first',
  );
});

test('addresses are counted as IPv4, IPv4-mapped IPv6 as IPv4, IPv6 by its /64, and anything else as one', (t) => {
  t.is(addressKey('::ffff:127.0.0.1'), '127.0.0.1');
  t.is(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  t.is(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  t.is(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.is(addressKey('::1'), '0:0:0:0::/64');
  t.is(addressKey(undefined), '?');
  t.is(addressKey('x'.repeat(500)), 'other', 'a forwarded value that is no address cannot make a key of its own');
});

/** Accounts on a runtime's database with limits and a clock of the test's own. */
async function accountsOn(
  vela: TestRuntime,
  attemptLimits: typeof limits,
  now: () => number,
): Promise<{ accounts: Accounts; attempts: PasswordAttempts }> {
  const attempts = new PasswordAttempts(attemptLimits, now);
  return { accounts: new Accounts(vela.runtime.db, vela.runtime.logger, attempts), attempts };
}

const refusedWith429 = async (t: ExecutionContext, attempt: Promise<unknown>, what: string) => {
  const error = await t.throwsAsync(attempt, undefined, what);
  t.is((error as { status?: number } | undefined)?.status, 429, what);
};

const heldBack = test.macro(async (t, database: 'sqlite' | 'postgres') => {
  t.timeout(60_000);
  const pg = database === 'postgres' ? await createTestPostgres() : null;
  if (database === 'postgres' && !pg) return t.fail('PostgreSQL refused to create a test database');
  if (pg) t.teardown(() => pg.drop());
  const vela = await startTestRuntime({ plugins: [], databaseUrl: pg?.url });
  t.teardown(() => vela.stop());
  const { accounts } = await accountsOn(vela, limits, clock().now);
  t.truthy(await accounts.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '192.168.1.10'));
  for (let i = 0; i < 4; i += 1)
    t.is(await accounts.authenticate(TEST_ADMIN.user, `guess-${i}`, `203.0.113.${i}`), null);
  await refusedWith429(
    t,
    accounts.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '203.0.113.99'),
    'a new address waits',
  );
  t.truthy(
    await accounts.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '192.168.1.10'),
    "the administrator's own address is not locked out",
  );
});

test(
  'guesses from many addresses hold the account back, but not at an address that signed it in lately (SQLite)',
  heldBack,
  'sqlite',
);
(postgresReachable() ? test : test.skip)('the same on PostgreSQL', heldBack, 'postgres');

test("flushing the in-memory tables with throwaway names from thousands of IPv6 /64s does not reset an account's count", async (t) => {
  t.timeout(60_000);
  const vela = await startTestRuntime({ plugins: [] });
  t.teardown(() => vela.stop());
  const { accounts, attempts } = await accountsOn(vela, { ...limits, perAddress: 1000 }, clock().now);
  for (let i = 0; i < 4; i += 1)
    t.is(await accounts.authenticate(TEST_ADMIN.user, `guess-${i}`, `2001:db8:0:${i}::1`), null);
  // What 30,000 failed sign-ins with new names from new /64s leave in memory (each would cost an scrypt here).
  for (let i = 0; i < 30_000; i += 1) {
    const address = `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`;
    attempts.failed(address, `throwaway-${i}`, 'x');
    attempts.failedUnknownName(`throwaway-${i}`);
  }
  await refusedWith429(
    t,
    accounts.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '2001:db8:ffff:1::1'),
    'the account still waits after the flood',
  );
  t.is(
    await accounts.authenticate('throwaway-3', 'x', '2001:db8:ffff:2::1'),
    null,
    'a flushed throwaway name is merely wrong again',
  );
});

test('an account’s count and its trusted addresses are shared by processes on one database and kept over a restart', async (t) => {
  t.timeout(60_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-attempts-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = `sqlite://${path.join(dataDir, 'shared.sqlite')}`;
  const config = { runtime: { auth: { passwordAttempts: limits } } };
  const a = await startTestRuntime({ plugins: [], databaseUrl, config });
  const b = await startTestRuntime({ plugins: [], databaseUrl, config });
  t.teardown(() => b.stop());
  const onA = a.runtime.resolve<Accounts>('accounts');
  const onB = b.runtime.resolve<Accounts>('accounts');
  t.truthy(await onA.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '192.168.1.10'));
  for (let i = 0; i < 2; i += 1) t.is(await onA.authenticate(TEST_ADMIN.user, `a-${i}`, `203.0.113.${i}`), null);
  for (let i = 2; i < 4; i += 1) t.is(await onB.authenticate(TEST_ADMIN.user, `b-${i}`, `203.0.113.${i}`), null);
  await refusedWith429(
    t,
    onA.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '203.0.113.50'),
    'failures on both processes add up',
  );
  await a.stop();
  const again = await startTestRuntime({ plugins: [], databaseUrl, config });
  t.teardown(() => again.stop());
  const restarted = again.runtime.resolve<Accounts>('accounts');
  await refusedWith429(
    t,
    restarted.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '203.0.113.51'),
    'the count outlives a restart',
  );
  t.truthy(
    await restarted.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '192.168.1.10'),
    'and so does the trusted address',
  );
});

test('credentials no account can have are wrong at once: no query, no count, never an error', async (t) => {
  t.timeout(60_000);
  const vela = await startTestRuntime({ plugins: [] });
  t.teardown(() => vela.stop());
  const { accounts } = await accountsOn(vela, limits, clock().now);
  for (const [user, password] of [
    ['ad\u0000min', TEST_ADMIN.password],
    ['ad\u001bmin', TEST_ADMIN.password],
    [TEST_ADMIN.user, 'pass\u0000word'],
    ['u'.repeat(65), 'x'],
  ] as const) {
    t.is(await accounts.authenticate(user, password, '127.0.0.1'), null, JSON.stringify(user));
  }
  t.is(
    await vela.runtime
      .db('runtime_login_failures')
      .count({ n: '*' })
      .first()
      .then((r) => Number(r?.n)),
    0,
    'nothing counted against any account',
  );
  t.truthy(await accounts.authenticate(TEST_ADMIN.user, TEST_ADMIN.password, '127.0.0.1'));
});

/** A GET with Basic credentials from a chosen loopback source address. */
function getFrom(
  url: string,
  localAddress: string,
  user: string,
  password: string,
): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { localAddress, headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }),
        );
      },
    );
    req.on('error', reject);
  });
}

test('wrong Basic credentials on any route are limited with 429 and Retry-After; the right ones from another address still work', async (t) => {
  t.timeout(60_000);
  const vela = await startTestRuntime({
    plugins: ['search'],
    config: {
      runtime: { auth: { passwordAttempts: { perPair: 5, perAddress: 20, perUser: 50, windowSeconds: 600 } } },
    },
  });
  t.teardown(() => vela.stop());
  const url = vela.url('search', '/api/sn');
  const statuses: number[] = [];
  for (let i = 0; i < 8; i += 1) statuses.push((await getFrom(url, '127.0.0.1', TEST_ADMIN.user, `wrong-${i}`)).status);
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
  const limited = await getFrom(url, '127.0.0.1', TEST_ADMIN.user, TEST_ADMIN.password);
  t.is(limited.status, 429, 'even the right password waits at a limited address');
  t.true(Number(limited.retryAfter) > 0);
  t.is(JSON.parse(limited.body).error, 'too_many_requests');
  t.is(
    (await getFrom(url, '127.0.0.2', TEST_ADMIN.user, TEST_ADMIN.password)).status,
    200,
    'another address is not held back',
  );
  const login = await getFrom(vela.url('search', '/api/login'), '127.0.0.1', TEST_ADMIN.user, 'wrong-again');
  t.is(login.status, 429, 'the sign-in endpoint counts the same failures');
});
