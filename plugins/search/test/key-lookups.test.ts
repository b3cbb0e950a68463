import test from 'ava';
import type { Database } from 'vela/plugin';
import { createLogger } from 'vela/testing';
import { ApiTokens, MAX_KEY_LOOKUPS } from '../auth/api-tokens.js';

const silent = createLogger({ level: 'silent' });

/** A store whose queries stay in flight until the test answers them, so lookups can be held open at once. */
function heldDatabase() {
  const queries: Array<{ answer: (row: unknown) => void; fail: (error: Error) => void }> = [];
  const chain = {
    select: () => chain,
    where: () => chain,
    first: () => new Promise((resolve, reject) => queries.push({ answer: resolve, fail: reject })),
    // The last-used stamp of an accepted key.
    update: () => Promise.resolve(1),
  };
  return { db: (() => chain) as unknown as Database, queries };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const key = (i: number) => `unknown-key-${i}`;

test(`at most ${MAX_KEY_LOOKUPS} unknown keys are looked up at once: the next is answered 503 (retry), and a key created elsewhere is accepted`, async (t) => {
  const { db, queries } = heldDatabase();
  const tokens = new ApiTokens(db, silent);
  const lookups = Array.from({ length: MAX_KEY_LOOKUPS }, (_, i) => tokens.verifyOrLookup(key(i)));
  await settle();
  t.is(queries.length, MAX_KEY_LOOKUPS);
  const over = await t.throwsAsync(Promise.resolve(tokens.verifyOrLookup(key(999))));
  t.like(over, { code: 'service_unavailable', status: 503 });
  t.is((over as { headers?: Record<string, string> }).headers?.['Retry-After'], '1');
  t.is(queries.length, MAX_KEY_LOOKUPS, 'no query beyond the bound');

  // The first is a token another process created a moment ago; the others are unknown.
  queries[0]!.answer({ id: 't1', token_hash: 'h', created_by: 'admin', scopes: '["search"]' });
  for (const query of queries.slice(1)) query.answer(undefined);
  const answers = await Promise.all(lookups);
  t.like(answers[0], { username: 'admin', via: 'key', tokenId: 't1' });
  t.true(answers.slice(1).every((a) => a === null));
  // Unknown keys are remembered a while: asking again costs no query.
  t.is(await tokens.verifyOrLookup(key(1)), null);
  t.is(queries.length, MAX_KEY_LOOKUPS);
});

test('a store that cannot be asked answers 503, not a refusal of the key', async (t) => {
  const { db, queries } = heldDatabase();
  const tokens = new ApiTokens(db, silent);
  const lookup = Promise.resolve(tokens.verifyOrLookup(key(1)));
  await settle();
  queries[0]!.fail(new Error('connect ECONNREFUSED'));
  t.like(await t.throwsAsync(lookup), { code: 'service_unavailable', status: 503 });
  // Not remembered as unknown: the next request asks again.
  void tokens.verifyOrLookup(key(1));
  await settle();
  t.is(queries.length, 2);
  queries[1]!.answer(undefined);
});
