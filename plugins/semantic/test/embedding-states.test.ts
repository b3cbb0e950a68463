import test from 'ava';
import { onBothDatabases } from 'vela/testing';
import { EmbeddingStates } from '../store/embedding-states.js';
import { storeDatabase } from './store-database.js';

const SITE = 'site-1';
const MODEL = 'builtin:abc';
const pending = (ids: string[], hash = 'h1') => ids.map((docId) => ({ docId, textHash: `${hash}-${docId}` }));

/** A clock the test moves by hand: leases run out when the test says so. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

onBothDatabases(
  test,
  'pending rows skip documents pending or done with the same text; a new text or a failure is pending again',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const states = new EmbeddingStates(db);
    t.deepEqual((await states.markPending(SITE, 'en', MODEL, pending(['a', 'b', 'c']))).sort(), ['a', 'b', 'c']);
    t.deepEqual(
      await states.markPending(SITE, 'en', MODEL, pending(['a', 'b', 'c'])),
      [],
      'pending with that text already',
    );
    // Another model and another locale are other rows.
    t.deepEqual(await states.markPending(SITE, 'en', 'other', pending(['a'])), ['a']);
    t.deepEqual(await states.markPending(SITE, 'pt', MODEL, pending(['a'])), ['a']);

    const claimed = await states.claim(10, 60_000, { siteId: SITE, locale: 'en', modelKey: MODEL });
    t.deepEqual(claimed.map((c) => c.docId).sort(), ['a', 'b', 'c']);
    t.is(claimed.find((c) => c.docId === 'a')?.textHash, 'h1-a');
    t.deepEqual(await states.markDone(SITE, 'en', MODEL, [{ docId: 'a', textHash: 'h1-a', passages: 3 }]), ['a']);
    t.deepEqual(
      await states.markFailed(SITE, 'en', MODEL, [{ docId: 'b', textHash: 'h1-b', reason: 'no known term' }]),
      ['b'],
    );

    t.deepEqual(await states.markPending(SITE, 'en', MODEL, pending(['a'])), [], 'done with that text');
    t.deepEqual(await states.markPending(SITE, 'en', MODEL, pending(['b'])), ['b'], 'a failure is tried again');
    t.deepEqual(await states.markPending(SITE, 'en', MODEL, pending(['a'], 'h2')), ['a'], 'a new text');
    t.deepEqual(await states.get(SITE, 'en', MODEL, 'a'), {
      state: 'pending',
      textHash: 'h2-a',
      passages: 0,
      reason: null,
    });
    t.is(await states.get(SITE, 'en', MODEL, 'nope'), undefined);
  },
);

onBothDatabases(
  test,
  'a worker whose document changed while it embedded cannot mark it done; the new text is claimable at once',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const states = new EmbeddingStates(db);
    await states.markPending(SITE, 'en', MODEL, pending(['a']));
    const [held] = await states.claim(1, 60_000);
    t.is(held?.docId, 'a');
    t.deepEqual(await states.claim(1, 60_000), [], 'held');
    await states.markPending(SITE, 'en', MODEL, pending(['a'], 'h2'));
    t.deepEqual(await states.markDone(SITE, 'en', MODEL, [{ docId: 'a', textHash: held!.textHash, passages: 1 }]), []);
    t.deepEqual(
      await states.markFailed(SITE, 'en', MODEL, [{ docId: 'a', textHash: held!.textHash, reason: 'x' }]),
      [],
    );
    const [again] = await states.claim(1, 60_000);
    t.is(again?.textHash, 'h2-a');
    t.deepEqual(await states.markDone(SITE, 'en', MODEL, [{ docId: 'a', textHash: 'h2-a', passages: 2 }]), ['a']);
    t.is((await states.get(SITE, 'en', MODEL, 'a'))?.state, 'done');
  },
);

onBothDatabases(
  test,
  'a lease that runs out gives the row back; a released row is claimable at once',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const clock = manualClock();
    const states = new EmbeddingStates(db, { clock: clock.now });
    await states.markPending(SITE, 'en', MODEL, pending(['a', 'b']));
    const first = await states.claim(1, 1000);
    t.is(first.length, 1);
    t.is(first[0]!.claimedUntil, clock.now() + 1000);
    clock.advance(999);
    const second = await states.claim(5, 1000);
    t.deepEqual(
      second.map((c) => c.docId),
      ['a', 'b'].filter((id) => id !== first[0]!.docId),
    );
    t.deepEqual(await states.claim(5, 1000), [], 'both held');
    clock.advance(2);
    t.deepEqual(
      (await states.claim(5, 1000)).map((c) => c.docId),
      [first[0]!.docId],
      'the first lease ran out',
    );
    await states.release(SITE, 'en', MODEL, [second[0]!.docId]);
    t.deepEqual(
      (await states.claim(5, 1000)).map((c) => c.docId),
      [second[0]!.docId],
    );
    // Claims keep to their scope.
    await states.markPending('site-2', 'en', MODEL, pending(['z']));
    t.deepEqual(await states.claim(5, 1000, { siteId: SITE }), []);
    t.deepEqual(
      (await states.claim(5, 1000, { siteId: 'site-2', locale: 'en', modelKey: MODEL })).map((c) => c.docId),
      ['z'],
    );
  },
);

onBothDatabases(test, 'two claimers on two connection pools never get one row both', async (t, url) => {
  t.timeout(120_000);
  const { db, open } = await storeDatabase(t, url);
  const ids = Array.from({ length: 300 }, (_, i) => `doc-${String(i).padStart(3, '0')}`);
  await new EmbeddingStates(db).markPending(SITE, 'en', MODEL, pending(ids));
  const claimers = [new EmbeddingStates(db), new EmbeddingStates(open())];
  const got: string[][] = [[], []];
  await Promise.all(
    claimers.map(async (states, i) => {
      // Several claims in flight per claimer, as several worker loops of one process would have.
      const loop = async () => {
        for (;;) {
          const batch = await states.claim(7, 600_000);
          if (batch.length === 0) return;
          got[i]!.push(...batch.map((c) => c.docId));
        }
      };
      await Promise.all([loop(), loop(), loop()]);
    }),
  );
  const all = [...got[0]!, ...got[1]!];
  t.is(all.length, ids.length, 'no row handed out twice');
  t.deepEqual([...new Set(all)].sort(), ids);
  t.true(got[0]!.length > 0 && got[1]!.length > 0, 'both claimers took part');
});

onBothDatabases(
  test,
  'counts per locale and model, failures with their reasons, removal and forgetting',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const clock = manualClock();
    const states = new EmbeddingStates(db, { clock: clock.now });
    await states.markPending(SITE, 'en', MODEL, pending(['a', 'b', 'c', 'd', 'e']));
    await states.markPending(SITE, 'pt', MODEL, pending(['a']));
    const claimed = await states.claim(3, 1000, { locale: 'en' });
    t.is(claimed.length, 3);
    await states.markDone(SITE, 'en', MODEL, [
      { docId: claimed[0]!.docId, textHash: claimed[0]!.textHash, passages: 4 },
    ]);
    clock.advance(1);
    const long = 'x'.repeat(5000);
    await states.markFailed(SITE, 'en', MODEL, [{ docId: claimed[1]!.docId, reason: long }]);
    t.deepEqual(await states.counts(SITE), [
      { locale: 'en', modelKey: MODEL, pending: 3, claimed: 1, done: 1, failed: 1, passages: 4 },
      { locale: 'pt', modelKey: MODEL, pending: 1, claimed: 0, done: 0, failed: 0, passages: 0 },
    ]);
    t.deepEqual(await states.counts('elsewhere'), []);

    const failures = await states.failures(SITE);
    t.is(failures.length, 1);
    t.like(failures[0], { locale: 'en', docId: claimed[1]!.docId, modelKey: MODEL });
    t.is(failures[0]!.reason.length, 1000, 'a reason is kept to its first 1000 characters');
    t.false(Number.isNaN(Date.parse(failures[0]!.updatedAt)));
    t.deepEqual(await states.failures(SITE, { locale: 'pt' }), []);

    await states.remove(SITE, 'en', [claimed[0]!.docId, claimed[1]!.docId]);
    t.like((await states.counts(SITE))[0], { pending: 3, done: 0, failed: 0 });
    await states.forgetModel(SITE, 'en', MODEL);
    t.deepEqual(
      (await states.counts(SITE)).map((c) => c.locale),
      ['pt'],
    );
    await states.forgetSite(SITE);
    t.deepEqual(await states.counts(SITE), []);
  },
);
