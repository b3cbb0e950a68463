import test from 'ava';
import { SignInThrottle, throttleKey } from '../console/sign-in-throttle.js';

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

test('a client may fail up to the limit, then waits until its oldest failure leaves the window', (t) => {
  const { state, now } = clock();
  const throttle = new SignInThrottle(3, 60_000, now);
  const key = throttleKey('127.0.0.1', 'admin');
  for (let i = 0; i < 3; i += 1) {
    t.is(throttle.retryAfterSeconds(key), 0, `attempt ${i + 1}`);
    throttle.fail(key);
    state.now += 10_000;
  }
  t.is(throttle.retryAfterSeconds(key), 30, 'the first failure leaves the window 30 s from now');
  state.now += 30_001;
  t.is(throttle.retryAfterSeconds(key), 0);
});

test('a success forgets the failures, and other users or addresses are not held back', (t) => {
  const { now } = clock();
  const throttle = new SignInThrottle(2, 60_000, now);
  const key = throttleKey('127.0.0.1', 'Admin');
  throttle.fail(key);
  throttle.fail(key);
  t.true(throttle.retryAfterSeconds(key) > 0);
  t.true(throttle.retryAfterSeconds(throttleKey('127.0.0.1', 'admin')) > 0, 'user names are compared without case');
  t.is(throttle.retryAfterSeconds(throttleKey('10.0.0.2', 'admin')), 0);
  t.is(throttle.retryAfterSeconds(throttleKey('127.0.0.1', 'other')), 0);
  throttle.succeed(key);
  t.is(throttle.retryAfterSeconds(key), 0);
});
