import test from 'ava';
import { onBothDatabases } from 'vela/testing';
import { EmbeddingStates } from '../store/embedding-states.js';
import { detectPgvector, type ExtensionCatalog, openVectorStore } from '../store/pgvector.js';
import { nearestSql, type VectorChange, VectorStore } from '../store/vector-store.js';
import { storeDatabase } from './store-database.js';

const SITE = 'site-1';
const MODEL = 'builtin:abc';

/** Deterministic pseudo-random numbers (a test must not depend on luck). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function unitVector(next: () => number, dimensions: number): Float32Array {
  const v = Float32Array.from({ length: dimensions }, () => next() * 2 - 1);
  const norm = Math.hypot(...v);
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

const changeOf = (c: VectorChange) => `${c.locale}/${c.modelKey}/${c.docId}${c.removed ? ' removed' : ''}`;

onBothDatabases(
  test,
  'vectors read back as the very float32 values written; a write replaces older passages',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const store = new VectorStore(db);
    const next = random(1);
    // Extremes a float32 holds: subnormal, smallest normal, largest, and plain values.
    const edge = Float32Array.from([
      1.401298464324817e-45,
      1.1754942106924411e-38,
      3.4028234663852886e38,
      -1,
      0.1,
      1 / 3,
    ]);
    const passages = [edge, unitVector(next, 6), unitVector(next, 6)];
    await store.write(SITE, 'en', MODEL, [
      { docId: 'a', vectors: passages },
      { docId: 'b', vectors: [unitVector(next, 6)] },
    ]);
    const read = await store.read(SITE, 'en', MODEL, ['a', 'b', 'missing']);
    t.deepEqual([...read.keys()].sort(), ['a', 'b']);
    t.deepEqual(read.get('a'), passages);
    t.deepEqual(await store.count(SITE, 'en', MODEL), { documents: 2, passages: 4 });

    const shorter = [unitVector(next, 6)];
    await store.write(SITE, 'en', MODEL, [{ docId: 'a', vectors: shorter }]);
    t.deepEqual((await store.read(SITE, 'en', MODEL, ['a'])).get('a'), shorter);
    t.deepEqual(await store.count(SITE, 'en', MODEL), { documents: 2, passages: 2 });
    // Another locale or model is apart.
    t.deepEqual(await store.count(SITE, 'pt', MODEL), { documents: 0, passages: 0 });

    await t.throwsAsync(
      store.write(SITE, 'en', MODEL, [{ docId: 'c', vectors: [unitVector(next, 6), unitVector(next, 5)] }]),
      { instanceOf: RangeError },
    );
    await t.throwsAsync(store.write(SITE, 'en', MODEL, [{ docId: 'c', vectors: [Float32Array.from([Number.NaN])] }]), {
      instanceOf: RangeError,
    });
  },
);

onBothDatabases(test, 'a scan pages through every passage of a model in order', async (t, url) => {
  const { db } = await storeDatabase(t, url);
  const store = new VectorStore(db);
  const next = random(2);
  const docs = ['d1', 'd2', 'd3', 'd4'].map((docId, i) => ({
    docId,
    vectors: Array.from({ length: i + 1 }, () => unitVector(next, 8)),
  }));
  await store.write(SITE, 'en', MODEL, docs);
  await store.write(SITE, 'en', 'other', [{ docId: 'x', vectors: [unitVector(next, 8)] }]);
  const pages: number[] = [];
  const seen: string[] = [];
  for await (const page of store.scan(SITE, 'en', MODEL, 3)) {
    pages.push(page.length);
    for (const p of page) {
      seen.push(`${p.docId}#${p.passage}`);
      t.deepEqual(p.vector, docs.find((d) => d.docId === p.docId)!.vectors[p.passage]);
    }
  }
  t.deepEqual(pages, [3, 3, 3, 1]);
  t.deepEqual(seen, ['d1#0', 'd2#0', 'd2#1', 'd3#0', 'd3#1', 'd3#2', 'd4#0', 'd4#1', 'd4#2', 'd4#3']);
});

onBothDatabases(test, 'the log gives every write and removal once, in order, to a follower', async (t, url) => {
  const { db } = await storeDatabase(t, url);
  const store = new VectorStore(db);
  const next = random(3);
  const v = () => [unitVector(next, 4)];
  t.is(await store.maxSeq(), 0);
  const s1 = await store.write(SITE, 'en', MODEL, [
    { docId: 'b', vectors: v() },
    { docId: 'a', vectors: v() },
  ]);
  const s2 = await store.write(SITE, 'pt', MODEL, [{ docId: 'c', vectors: [] }]);
  const s3 = await store.remove(SITE, 'en', ['a', 'never-embedded']);
  const s4 = await store.write(SITE, 'en', 'other', [{ docId: 'a', vectors: v() }]);
  t.true(s1 < s2 && s2 < s3 && s3 < s4);
  t.is(await store.maxSeq(), s4);
  const all = await store.changesAfter(0, 100);
  t.deepEqual(all.map(changeOf), [
    `en/${MODEL}/a`,
    `en/${MODEL}/b`,
    `pt/${MODEL}/c removed`,
    `en/${MODEL}/a removed`,
    'en/other/a',
  ]);
  t.deepEqual(
    all.map((c) => c.seq),
    [...all.map((c) => c.seq)].sort((x, y) => x - y),
  );
  t.is(all[1]!.seq, s1);
  t.deepEqual((await store.changesAfter(s2, 100)).map(changeOf), [`en/${MODEL}/a removed`, 'en/other/a']);
  t.deepEqual((await store.changesAfter(0, 2)).map(changeOf), [`en/${MODEL}/a`, `en/${MODEL}/b`]);
  t.deepEqual(await store.changesAfter(s4, 100), []);
  // Removing a document of every model: only the models that had it are logged.
  const s5 = await store.remove(SITE, 'en', ['a', 'b']);
  t.deepEqual((await store.changesAfter(s4, 100)).map(changeOf), [`en/${MODEL}/b removed`, 'en/other/a removed']);
  await store.pruneChanges(s5);
  t.is((await store.changesAfter(0, 100)).length, 1, 'the newest row stays');
  t.is(await store.maxSeq(), s5);
});

onBothDatabases(
  test,
  'writers on two connection pools: a follower reading seq > applied misses nothing',
  async (t, url) => {
    t.timeout(120_000);
    const { db, open } = await storeDatabase(t, url);
    const writers = [new VectorStore(db), new VectorStore(open())];
    const follower = new VectorStore(open());
    const next = random(4);
    const written = new Set<string>();
    const seen = new Set<string>();
    let applied = 0;
    let done = false;
    const follow = async () => {
      for (;;) {
        const finished = done;
        const changes = await follower.changesAfter(applied, 50);
        for (const c of changes) seen.add(c.docId);
        if (changes.length > 0) applied = changes[changes.length - 1]!.seq;
        else if (finished) return;
      }
    };
    const write = async (store: VectorStore, name: string) => {
      for (let batch = 0; batch < 20; batch++) {
        const docs = Array.from({ length: 5 }, (_, i) => ({
          docId: `${name}-${batch}-${i}`,
          vectors: [unitVector(next, 4)],
        }));
        await store.write(SITE, 'en', MODEL, docs);
        for (const d of docs) written.add(d.docId);
      }
    };
    const following = follow();
    await Promise.all([
      write(writers[0]!, 'w0'),
      write(writers[0]!, 'w1'),
      write(writers[1]!, 'w2'),
      write(writers[1]!, 'w3'),
    ]);
    done = true;
    await following;
    t.is(written.size, 400);
    t.deepEqual([...seen].sort(), [...written].sort());
  },
);

onBothDatabases(test, 'done states and vectors commit together or not at all', async (t, url) => {
  const { db } = await storeDatabase(t, url);
  const states = new EmbeddingStates(db);
  const vectors = new VectorStore(db);
  const next = random(5);
  await states.markPending(SITE, 'en', MODEL, [
    { docId: 'a', textHash: 'ha' },
    { docId: 'b', textHash: 'hb' },
  ]);
  await states.claim(10, 60_000);
  await t.throwsAsync(
    db.transaction(async (trx) => {
      const accepted = await states.markDone(SITE, 'en', MODEL, [{ docId: 'a', textHash: 'ha', passages: 1 }], trx);
      await vectors.write(
        SITE,
        'en',
        MODEL,
        accepted.map((docId) => ({ docId, vectors: [unitVector(next, 4)] })),
        trx,
      );
      throw new Error('the worker stopped');
    }),
    { message: 'the worker stopped' },
  );
  t.is((await states.get(SITE, 'en', MODEL, 'a'))?.state, 'pending');
  t.is(await vectors.maxSeq(), 0);
  await db.transaction(async (trx) => {
    const accepted = await states.markDone(
      SITE,
      'en',
      MODEL,
      [
        { docId: 'a', textHash: 'ha', passages: 1 },
        { docId: 'b', textHash: 'stale', passages: 1 },
      ],
      trx,
    );
    t.deepEqual(accepted, ['a']);
    await vectors.write(
      SITE,
      'en',
      MODEL,
      accepted.map((docId) => ({ docId, vectors: [unitVector(next, 4)] })),
      trx,
    );
  });
  t.is((await states.get(SITE, 'en', MODEL, 'a'))?.state, 'done');
  t.deepEqual([...(await vectors.read(SITE, 'en', MODEL, ['a', 'b'])).keys()], ['a']);
});

onBothDatabases(test, 'forgetting a model or a site deletes its vectors only', async (t, url) => {
  const { db } = await storeDatabase(t, url);
  const store = new VectorStore(db);
  const next = random(6);
  await store.write(SITE, 'en', MODEL, [{ docId: 'a', vectors: [unitVector(next, 4)] }]);
  await store.write(SITE, 'en', 'other', [{ docId: 'a', vectors: [unitVector(next, 4)] }]);
  await store.write('site-2', 'en', MODEL, [{ docId: 'a', vectors: [unitVector(next, 4)] }]);
  await store.forgetModel(SITE, 'en', MODEL);
  t.is((await store.count(SITE, 'en', MODEL)).passages, 0);
  t.is((await store.count(SITE, 'en', 'other')).passages, 1);
  await store.forgetSite(SITE);
  t.is((await store.count(SITE, 'en', 'other')).passages, 0);
  t.is((await store.count('site-2', 'en', MODEL)).passages, 1);
});

onBothDatabases(
  test,
  'nearest in SQL: on PostgreSQL the exact best passages, as JavaScript computes them; refused on SQLite',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const store = new VectorStore(db);
    const next = random(7);
    const dimensions = 32;
    const docs = Array.from({ length: 300 }, (_, i) => ({
      docId: `doc-${i}`,
      vectors: Array.from({ length: 1 + (i % 3) }, () => unitVector(next, dimensions)),
    }));
    await store.write(SITE, 'en', MODEL, docs);
    await store.write(SITE, 'en', 'other', [{ docId: 'elsewhere', vectors: [unitVector(next, dimensions)] }]);
    const query = unitVector(next, dimensions);
    if (!url) {
      t.false(store.searchesInSql);
      await t.throwsAsync(store.nearest(SITE, 'en', MODEL, query, 10), { message: /needs PostgreSQL/ });
      return;
    }
    t.true(store.searchesInSql);
    const expected = docs
      .map((d) => ({ id: d.docId, score: Math.max(...d.vectors.map((v) => dot(v, query))) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const found = await store.nearest(SITE, 'en', MODEL, query, 10);
    t.deepEqual(
      found.map((f) => f.id),
      expected.map((e) => e.id),
    );
    for (const [i, f] of found.entries())
      t.true(Math.abs(f.score - expected[i]!.score) < 1e-9, `${f.score} vs ${expected[i]!.score}`);
    t.deepEqual(await store.nearest(SITE, 'en', MODEL, query, 0), []);
    t.deepEqual(await store.nearest(SITE, 'pt', MODEL, query, 5), []);
  },
);

test('pgvector is used when installed, or offered and created; never on SQLite or when refused', async (t) => {
  const postgres = { client: { dialect: 'postgresql' } } as never;
  const catalog = (installed: boolean, available: boolean, create: () => Promise<void>): ExtensionCatalog => ({
    installed: async () => installed,
    available: async () => available,
    create,
  });
  let created = 0;
  const creates = async () => {
    created += 1;
  };
  const refuses = async () => {
    throw new Error('permission denied to create extension "vector"');
  };
  t.true(await detectPgvector(postgres, catalog(true, true, creates)));
  t.is(created, 0, 'installed: nothing to create');
  t.true(await detectPgvector(postgres, catalog(false, true, creates)));
  t.is(created, 1);
  t.false(await detectPgvector(postgres, catalog(false, true, refuses)));
  t.false(await detectPgvector(postgres, catalog(false, false, creates)));
  t.is(created, 1, 'not offered: not tried');
  t.false(await detectPgvector({ client: { dialect: 'sqlite3' } } as never, catalog(true, true, creates)));
  // With it, nearest orders by cosine distance; without, by the dot product over real[].
  t.regex(nearestSql(true), /1 - \(embedding <=> \?::vector\)/);
  t.regex(nearestSql(false), /unnest\(vector, \?::real\[\]\)/);
});

onBothDatabases(
  test,
  'without pgvector on this server, detection says no and nearest keeps to real[]',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const installed = url
      ? ((await db.raw("select 1 from pg_available_extensions where name = 'vector'")) as { rows: unknown[] }).rows
          .length > 0
      : false;
    if (installed) t.pass('pgvector is offered here: the injected answers above cover the choice');
    else {
      t.false(await detectPgvector(db));
      t.false((await openVectorStore(db)).usesPgvector);
    }
  },
);
