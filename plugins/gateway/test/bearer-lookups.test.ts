import test from 'ava';
import type { Database } from 'vela/plugin';
import { MAX_BEARER_LOOKUPS, TokenStore } from '../oauth/token-store.js';
import type { AppStore } from '../store/app-store.js';

/**
 * A store whose queries stay in flight until the test answers them: the only way to hold lookups open at
 * once and see how many reach the database.
 */
function heldDatabase() {
  const queries: Array<{ table: string; where: Record<string, unknown>; answer: (row: unknown) => void }> = [];
  const db = ((table: string) => {
    let where: Record<string, unknown> = {};
    const chain = {
      select: () => chain,
      where: (w: Record<string, unknown>) => {
        where = w;
        return chain;
      },
      first: () => new Promise((resolve) => queries.push({ table, where, answer: resolve })),
    };
    return chain;
  }) as unknown as Database;
  return { db, queries };
}

const apps = {
  find: (id: string) => (id === 'app-1' ? { id } : undefined),
  appOfOwnToken: () => undefined,
  load: async () => undefined,
} as unknown as AppStore;
const token = (i: number) => i.toString(16).padStart(32, '0');
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('an unknown bearer token is looked up in the store before it is refused; found, it is held from then on', async (t) => {
  const { db, queries } = heldDatabase();
  const tokens = new TokenStore(db, apps);
  const issuedElsewhere = token(1);
  const lookup = tokens.lookupBearer(issuedElsewhere);
  await settle();
  t.is(queries.length, 1);
  t.is(queries[0]!.table, 'gateway_tokens');
  queries[0]!.answer({ app_id: 'app-1', kind: 'access', expires_at: Date.now() + 60_000, revoked: false });
  t.deepEqual(await lookup, { appId: 'app-1' });
  t.is(tokens.appOfBearer(issuedElsewhere), 'app-1');
  // Held in memory now: no second query.
  t.deepEqual(await tokens.lookupBearer(issuedElsewhere), { appId: 'app-1' });
  t.is(queries.length, 1);
});

test(`at most ${MAX_BEARER_LOOKUPS} lookups are in flight: the rest answer "busy" (503, retry) at once, never a 401, and an unknown value is not asked again soon`, async (t) => {
  const { db, queries } = heldDatabase();
  const tokens = new TokenStore(db, apps);
  const extra = 8;
  const lookups = Array.from({ length: MAX_BEARER_LOOKUPS + extra }, (_, i) => tokens.lookupBearer(token(100 + i)));
  // The same value twice while its lookup is in flight: one query for both.
  const twice = tokens.lookupBearer(token(100));
  await settle();
  t.is(queries.length, MAX_BEARER_LOOKUPS);
  const over = await Promise.all(lookups.slice(MAX_BEARER_LOOKUPS));
  t.deepEqual(over, Array(extra).fill('busy'));

  // The store knows none of them: no issued token, no app's own token.
  for (let round = 0; round < 2; round++) {
    for (const query of queries.splice(0)) query.answer(undefined);
    await settle();
  }
  t.deepEqual(await Promise.all(lookups.slice(0, MAX_BEARER_LOOKUPS)), Array(MAX_BEARER_LOOKUPS).fill(null));
  t.is(await twice, null);
  t.is(queries.length, 0);
  // Remembered as unknown for a while: a client repeating a wrong token costs no query.
  t.is(await tokens.lookupBearer(token(100)), null);
  t.is(queries.length, 0);
  // The slots are free again.
  void tokens.lookupBearer(token(999));
  await settle();
  t.is(queries.length, 1);
  queries[0]!.answer(undefined);
});

test('a value that cannot be a token is refused without a lookup; a store error answers "unavailable", not a refusal', async (t) => {
  const { db, queries } = heldDatabase();
  const tokens = new TokenStore(db, apps);
  t.is(await tokens.lookupBearer('not-a-token'), null);
  t.is(queries.length, 0);
  const broken = {
    select: () => broken,
    where: () => broken,
    first: () => Promise.reject(new Error('connection lost')),
  };
  const failing = new TokenStore((() => broken) as unknown as Database, apps);
  t.is(await failing.lookupBearer(token(5)), 'unavailable');
});
