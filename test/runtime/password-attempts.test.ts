import http from 'node:http';
import test from 'ava';
import { addressKey, PasswordAttempts } from '../../runtime/auth/password-attempts.js';
import { startTestRuntime, TEST_ADMIN } from '../../runtime/testing/test-runtime.js';

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
  t.is(attempts.retryAfterSeconds('127.0.0.1', 'Admin'), 30, 'the first failure leaves the window 30 s from now; names compare without case');
  state.now += 30_001;
  t.is(attempts.retryAfterSeconds('127.0.0.1', 'admin'), 0);
});

test('throwaway user names from one address run into the address limit', (t) => {
  const attempts = new PasswordAttempts(limits, clock().now);
  for (let i = 0; i < 5; i += 1) attempts.failed('10.0.0.7', `name-${i}`, 'x');
  t.true(attempts.retryAfterSeconds('10.0.0.7', 'admin') > 0, 'a fresh name from the same address waits too');
  t.is(attempts.retryAfterSeconds('10.0.0.8', 'admin'), 0, 'another address does not');
});

test('guesses from many addresses hold the user back, but not at an address that signed it in lately', (t) => {
  const attempts = new PasswordAttempts(limits, clock().now);
  attempts.succeeded('192.168.1.10', 'admin');
  for (let i = 0; i < 4; i += 1) attempts.failed(`203.0.113.${i}`, 'admin', `guess-${i}`);
  t.true(attempts.retryAfterSeconds('203.0.113.99', 'admin') > 0, 'a new address waits');
  t.is(attempts.retryAfterSeconds('192.168.1.10', 'admin'), 0, "the administrator's own address is not locked out");
});

test('a pair that just failed is known wrong (answered without hashing), and a flood of new keys stays bounded', (t) => {
  const attempts = new PasswordAttempts(limits, clock().now);
  attempts.failed('127.0.0.1', 'admin', 'nope');
  t.true(attempts.isKnownWrong('admin', 'nope'));
  t.false(attempts.isKnownWrong('admin', 'other'));
  for (let i = 0; i < 30_000; i += 1) attempts.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `u${i}`, `p${i}`);
  const tables = attempts as unknown as Record<string, { size: number }>;
  for (const name of ['byPair', 'byAddress', 'byUser', 'knownWrong']) t.true(tables[name]!.size <= 10_000, `${name}: ${tables[name]!.size}`);
});

test('addresses are counted as IPv4, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', (t) => {
  t.is(addressKey('::ffff:127.0.0.1'), '127.0.0.1');
  t.is(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  t.is(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  t.is(addressKey('::1'), '0:0:0:0::/64');
  t.is(addressKey(undefined), '?');
});

/** A GET with Basic credentials from a chosen loopback source address. */
function getFrom(url: string, localAddress: string, user: string, password: string): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }));
    });
    req.on('error', reject);
  });
}

test('wrong Basic credentials on any route are limited with 429 and Retry-After; the right ones from another address still work', async (t) => {
  const vela = await startTestRuntime({
    plugins: ['search'],
    config: { runtime: { auth: { passwordAttempts: { perPair: 5, perAddress: 20, perUser: 50, windowSeconds: 600 } } } },
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
  t.is((await getFrom(url, '127.0.0.2', TEST_ADMIN.user, TEST_ADMIN.password)).status, 200, 'another address is not held back');
  const login = await getFrom(vela.url('search', '/api/login'), '127.0.0.1', TEST_ADMIN.user, 'wrong-again');
  t.is(login.status, 429, 'the sign-in endpoint counts the same failures');
});
