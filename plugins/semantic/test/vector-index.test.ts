import { seededGaussian, seededUniform } from '@vela/embedding';
import test from 'ava';
import { createVectorIndex, restoreVectorIndex, type VectorIndexKind } from '../vector-index/index.js';

const KINDS: VectorIndexKind[] = ['exact', 'ann'];

/** `count` vectors around `clusters` random centres: the clustered shape text embeddings have. */
function clustered(count: number, dimensions: number, clusters: number, seed: number, spread = 0.5): Float32Array[] {
  const random = seededUniform(seed);
  const gaussian = seededGaussian(seed + 1);
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dimensions }, () => gaussian()));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * clusters)]!;
    return centre.map((value) => value + spread * gaussian());
  });
}

const v = (...values: number[]) => Float32Array.from(values);

for (const kind of KINDS) {
  test(`${kind}: upsert, has, size, search best first with cosine scores, remove`, (t) => {
    const index = createVectorIndex(3, { kind });
    t.is(index.kind, kind);
    t.is(index.dimensions, 3);
    index.upsert('x', v(2, 0, 0));
    index.upsert('xy', v(1, 1, 0));
    index.upsert('z', v(0, 0, 5));
    t.is(index.size, 3);
    t.true(index.has('xy'));
    t.false(index.has('y'));
    const found = index.search(v(1, 0, 0), 2);
    t.deepEqual(
      found.map((match) => match.key),
      ['x', 'xy'],
    );
    t.true(Math.abs(found[0]!.score - 1) < 1e-5);
    t.true(Math.abs(found[1]!.score - Math.SQRT1_2) < 1e-5);
    index.remove('x');
    index.remove('never-there');
    t.is(index.size, 2);
    t.false(index.has('x'));
    t.deepEqual(
      index.search(v(1, 0, 0), 3).map((match) => match.key),
      ['xy', 'z'],
    );
  });

  test(`${kind}: upserting a key again replaces its vector`, (t) => {
    const index = createVectorIndex(2, { kind });
    index.upsert('a', v(1, 0));
    index.upsert('b', v(0.6, 0.8));
    index.upsert('a', v(0, 1));
    t.is(index.size, 2);
    t.deepEqual(
      index.search(v(0, 1), 2).map((match) => match.key),
      ['a', 'b'],
    );
    t.true(Math.abs(index.search(v(1, 0), 1)[0]!.score - 0.6) < 1e-5);
  });

  test(`${kind}: accept filters keys and still fills k when enough pass`, (t) => {
    const index = createVectorIndex(16, { kind });
    const vectors = clustered(300, 16, 5, 7);
    for (const [i, vector] of vectors.entries()) index.upsert(`doc-${i}`, vector);
    const even = (key: string) => Number(key.slice(4)) % 2 === 0;
    const found = index.search(vectors[3]!, 10, even);
    t.is(found.length, 10);
    t.true(found.every((match) => even(match.key)));
    t.deepEqual(
      index.search(vectors[3]!, 10, () => false),
      [],
    );
    const scores = found.map((match) => match.score);
    t.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });

  test(`${kind}: k larger than the size gives every vector; k = 0 gives none`, (t) => {
    const index = createVectorIndex(2, { kind });
    t.deepEqual(index.search(v(1, 0), 5), []);
    index.upsert('a', v(1, 0));
    index.upsert('b', v(0, 1));
    t.is(index.search(v(1, 1), 50).length, 2);
    t.deepEqual(index.search(v(1, 1), 0), []);
  });

  test(`${kind}: a vector of the wrong length or without direction is a RangeError`, (t) => {
    const index = createVectorIndex(3, { kind });
    t.throws(() => index.upsert('a', v(1, 0)), { instanceOf: RangeError });
    t.throws(() => index.upsert('a', v(0, 0, 0)), { instanceOf: RangeError });
    index.upsert('a', v(1, 0, 0));
    t.throws(() => index.search(v(1, 0, 0, 0), 1), { instanceOf: RangeError });
    t.throws(() => index.search(v(1, 0, 0), -1), { instanceOf: RangeError });
    t.is(index.size, 1);
  });

  test(`${kind}: serialize then restore answers the same, and keeps working`, (t) => {
    const index = createVectorIndex(32, { kind });
    const vectors = clustered(500, 32, 8, 11);
    for (const [i, vector] of vectors.entries()) index.upsert(`doc-${i}`, vector);
    for (let i = 0; i < 50; i++) index.remove(`doc-${i * 3}`);
    const restored = restoreVectorIndex(index.serialize());
    t.is(restored.kind, kind);
    t.is(restored.dimensions, 32);
    t.is(restored.size, index.size);
    t.false(restored.has('doc-0'));
    for (const query of vectors.slice(0, 20)) t.deepEqual(restored.search(query, 10), index.search(query, 10));
    restored.upsert('new', vectors[0]!);
    t.is(restored.search(vectors[0]!, 1)[0]!.key, 'new');
    t.is(restored.size, index.size + 1);
  });

  test(`${kind}: grows past its initial capacity`, (t) => {
    const index = createVectorIndex(8, { kind });
    const vectors = clustered(5000, 8, 20, 5);
    for (const [i, vector] of vectors.entries()) index.upsert(`doc-${i}`, vector);
    t.is(index.size, 5000);
    t.is(index.search(vectors[4321]!, 1)[0]!.key, 'doc-4321');
    for (let i = 0; i < 1000; i++) index.remove(`doc-${i}`);
    for (const [i, vector] of vectors.slice(0, 1000).entries()) index.upsert(`again-${i}`, vector);
    t.is(index.size, 5000);
    t.is(index.search(vectors[10]!, 1)[0]!.key, 'again-10');
  });
}

test('ann graph parameters are checked and kept in the serialized bytes', (t) => {
  t.throws(() => createVectorIndex(4, { kind: 'ann', ann: { expansionSearch: 0 } }), { instanceOf: RangeError });
  t.throws(() => createVectorIndex(0), { instanceOf: RangeError });
  const index = createVectorIndex(4, { kind: 'ann', ann: { connectivity: 8, expansionSearch: 32 } });
  index.upsert('a', v(1, 2, 3, 4));
  const bytes = index.serialize();
  const json = new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(16, true)));
  t.like(JSON.parse(json), { parameters: { connectivity: 8, expansionAdd: 200, expansionSearch: 32 } });
  t.is(restoreVectorIndex(bytes).search(v(1, 2, 3, 4), 1)[0]!.key, 'a');
});

test('restore throws on bytes it did not write', (t) => {
  t.throws(() => restoreVectorIndex(new Uint8Array(0)));
  t.throws(() => restoreVectorIndex(new TextEncoder().encode('{"not":"an index"} and then some more bytes')));
  const good = createVectorIndex(2, { kind: 'ann' });
  good.upsert('a', v(1, 0));
  const bytes = good.serialize();
  const truncated = bytes.slice(0, bytes.length - 10);
  t.throws(() => restoreVectorIndex(truncated));
  const corrupt = bytes.slice();
  corrupt.fill(0x41, bytes.length - 40);
  t.throws(() => restoreVectorIndex(corrupt));
  const otherVersion = bytes.slice();
  otherVersion[4] = 99;
  t.throws(() => restoreVectorIndex(otherVersion), { message: /version/ });
});

test('ann recall@10 against exact search is at least 0.95 on clustered vectors', (t) => {
  // Spread wide enough that clusters overlap, so the graph search has real work to do; 200 held-out queries.
  const all = clustered(4200, 64, 40, 20261128, 1.5);
  const vectors = all.slice(0, 4000);
  const queries = all.slice(4000);
  const exact = createVectorIndex(64, { kind: 'exact' });
  const ann = createVectorIndex(64, { kind: 'ann' });
  for (const [i, vector] of vectors.entries()) {
    exact.upsert(String(i), vector);
    ann.upsert(String(i), vector);
  }
  let hits = 0;
  for (const query of queries) {
    const expected = new Set(exact.search(query, 10).map((match) => match.key));
    hits += ann.search(query, 10).filter((match) => expected.has(match.key)).length;
  }
  const recall = hits / (queries.length * 10);
  t.log(`recall@10 = ${recall.toFixed(3)}`);
  t.true(recall >= 0.95);
});
