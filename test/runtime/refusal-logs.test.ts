import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger, type Logger } from '../../runtime/logger.js';
import { RateLimitedLog } from '../../runtime/rate-limited-log.js';
import { type LogLine, startTestRuntime, TEST_ADMIN } from '../../runtime/testing/test-runtime.js';

// What any client can make the server log (refusals under load, failed sign-ins) is logged at the level it
// deserves, bounded in rate and in what it quotes.

const INFO = 30;
const WARN = 40;
const ERROR = 50;

function capture(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    }),
  });
  return { logger, lines };
}

test('a rate-limited log writes the first lines of each key, then one line saying how many it left out', async (t) => {
  const { logger, lines } = capture();
  const log = new RateLimitedLog(logger, { lines: 3, intervalMs: 300 });
  for (let i = 0; i < 20; i++) log.info('ocr_busy', { n: i }, 'request refused under load');
  for (let i = 0; i < 2; i++) log.info('too_many_requests', { n: i }, 'request refused under load');
  t.deepEqual(
    lines.map((l) => [l.level, l.n]),
    [
      [INFO, 0],
      [INFO, 1],
      [INFO, 2],
      [INFO, 0],
      [INFO, 1],
    ],
    'three of one code, both of the other',
  );
  await new Promise((resolve) => setTimeout(resolve, 450));
  t.is(lines.length, 6, 'one summary line once the interval ended');
  t.like(lines[5], {
    level: INFO,
    key: 'ocr_busy',
    suppressed: 17,
    msg: 'request refused under load: 17 more left out of the log (at most 3 lines per 300 ms)',
  });
  log.info('ocr_busy', { n: 20 }, 'request refused under load');
  t.like(lines[6], { n: 20 }, 'a new interval logs again');
  log.warn('sign_in_failed', { n: 0 }, 'sign-in failed');
  t.is(lines[7]!.level, WARN);
});

test('failed sign-ins are warn lines with the address and the user name, never the password; refusals past the limit are info, not errors', async (t) => {
  const vela = await startTestRuntime({ plugins: ['gateway'] });
  t.teardown(() => vela.stop());
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const login = (user: string, password: string) =>
    vela.fetch('gateway', '/api/login', {
      headers: { authorization: basic(user, password), accept: 'application/json' },
    });
  const secret = 'hunter2-not-the-password';

  const wrong = await login(TEST_ADMIN.user, secret);
  t.is(wrong.status, 401);
  const failed = () => vela.logs.filter((l) => l.msg === 'sign-in failed: wrong user name or password');
  t.is(failed().length, 1);
  t.like(failed()[0], { level: WARN, user: TEST_ADMIN.user });
  t.regex(String(failed()[0]!.address), /^(::ffff:)?127\.0\.0\.1$/);

  // A user name that would write lines of its own, and one of 300 characters: escaped and cut.
  t.is((await login('eve\r\nINFO signed in as admin\u001b[2J\u2028', secret)).status, 401);
  t.is(failed()[1]!.user, 'eve\\u000d\\u000aINFO signed in as admin\\u001b[2J\\u2028');
  t.is((await login('n'.repeat(300), secret)).status, 401);
  t.is(failed()[2]!.user, `${'n'.repeat(64)}…`);
  // The console's sign-in form.
  const page = await vela.fetch('gateway', '/console/login');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const form = await vela.fetch('gateway', '/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ username: 'trudy', password: secret, csrf, next: '/console/dashboard' }).toString(),
  });
  t.is(form.status, 401);
  t.like(failed()[3], { level: WARN, user: 'trudy' });
  // Basic credentials on an admin route are a sign-in too.
  t.is(
    (
      await vela.fetch('gateway', '/api/logout', {
        method: 'POST',
        headers: { authorization: basic('mallory', secret) },
      })
    ).status,
    401,
  );
  t.like(failed()[4], { level: WARN, user: 'mallory' });

  // The tenth failure of one pair from one address is the last checked: the next ones are 429 with Retry-After,
  // refusals that any client can cause, logged at info and at most ten a minute.
  let refused = 0;
  for (let i = 0; i < 30; i++) if ((await login(TEST_ADMIN.user, `${secret}-${i}`)).status === 429) refused += 1;
  t.true(refused >= 20, `${refused} refused`);
  const underLoad = vela.logs.filter((l) => l.msg === 'request refused under load');
  t.is(underLoad.length, 10);
  t.like(underLoad[0], { level: INFO, status: 429, error: 'too_many_requests', path: '/api/login' });
  t.deepEqual(
    vela.logs.filter((l) => l.level >= ERROR),
    [],
  );
  t.false(JSON.stringify(vela.logs).includes(secret), 'no password in any line');
  t.false(JSON.stringify(vela.logs).includes(TEST_ADMIN.password));
});
