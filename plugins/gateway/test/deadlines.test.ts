import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { type Deadline, Deadlines } from '../proxy/deadlines.js';

class Request implements Deadline {
  deadlineSlot = -1;
  expired = 0;
  onExpire: () => void = () => {
    this.expired++;
  };

  constructor(
    readonly name: string,
    public at: number,
  ) {}
}

test('deadlines expire once, when due; removed ones never do; a slot is reused after a removal', async (t) => {
  const deadlines = new Deadlines(5);
  const now = Date.now();
  const [soon, later, gone, last] = [
    new Request('soon', now + 20),
    new Request('later', now + 60_000),
    new Request('gone', now + 20),
    new Request('last', now + 20),
  ];
  for (const request of [soon, later, gone, last]) deadlines.add(request);
  deadlines.add(soon); // twice: still once
  t.is(deadlines.size, 4);
  deadlines.remove(gone);
  t.is(gone.deadlineSlot, -1);
  t.is(last.deadlineSlot, 2, 'the last deadline moved into the freed slot');
  deadlines.remove(gone); // twice: nothing happens
  t.is(deadlines.size, 3);
  await sleep(60);
  t.deepEqual(
    [soon, later, gone, last].map((r) => r.expired),
    [1, 0, 0, 1],
  );
  t.is(deadlines.size, 1);
  t.is(later.deadlineSlot, 0);
  deadlines.stop();
  t.is(later.deadlineSlot, -1);
  t.is(deadlines.size, 0);
});

test('an expiry that removes or adds other deadlines leaves every other one looked at exactly once', async (t) => {
  const deadlines = new Deadlines(5);
  const now = Date.now();
  const requests = Array.from({ length: 40 }, (_, i) => new Request(`r${i}`, i % 2 === 0 ? now + 10 : now + 60_000));
  for (const request of requests) deadlines.add(request);
  // Each expiring one takes out a pending one further down the array, and adds a new due one.
  const added: Request[] = [];
  for (const [i, request] of requests.entries()) {
    if (i % 4 !== 2) continue;
    request.onExpire = () => {
      request.expired++;
      deadlines.remove(requests[i - 1]!);
      const fresh = new Request(`fresh${i}`, Date.now() - 1);
      added.push(fresh);
      deadlines.add(fresh);
    };
  }
  await sleep(50);
  for (const [i, request] of requests.entries()) {
    const expected = i % 2 === 0 ? 1 : 0;
    t.is(request.expired, expected, request.name);
  }
  t.is(added.length, 10);
  for (const fresh of added) t.is(fresh.expired, 1, fresh.name);
  // Still pending: the odd ones no expiry took out (those just below an i % 4 === 2).
  const pending = requests.filter((_request, i) => i % 4 === 3);
  t.is(deadlines.size, pending.length);
  for (const request of pending) t.true(request.deadlineSlot >= 0, request.name);
  deadlines.stop();
});
