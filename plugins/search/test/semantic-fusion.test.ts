import test from 'ava';
import type { VectorRetriever } from '../api.js';
import { fuseByRank, parseSemanticMode } from '../query/semantic.js';
import { VectorRetrieverSlot } from '../query/vector-retrievers.js';

const scored = (list: Array<{ id: string; score: number }>) => list.map(({ id, score }) => [id, +score.toFixed(6)]);

test('fuseByRank scores each document 1 / (k + rank) summed over the lists, best first', (t) => {
  const fused = fuseByRank(
    [
      ['a', 'b', 'c'],
      ['c', 'a', 'd'],
    ],
    60,
  );
  t.deepEqual(scored(fused), [
    ['a', +(1 / 61 + 1 / 62).toFixed(6)],
    ['c', +(1 / 63 + 1 / 61).toFixed(6)],
    ['b', +(1 / 62).toFixed(6)],
    ['d', +(1 / 63).toFixed(6)],
  ]);
});

test('fuseByRank: ties go to the earlier place, then the earlier list; a list naming an id twice counts it once', (t) => {
  t.deepEqual(
    fuseByRank(
      [
        ['k1', 'k2'],
        ['v1', 'v2'],
      ],
      60,
    ).map((c) => c.id),
    ['k1', 'v1', 'k2', 'v2'],
  );
  t.deepEqual(scored(fuseByRank([['a', 'a', 'b']], 0)), [
    ['a', 1],
    ['b', +(1 / 3).toFixed(6)],
  ]);
  t.deepEqual(fuseByRank([[], []], 60), []);
  t.deepEqual(
    fuseByRank([['only']], 60).map((c) => c.id),
    ['only'],
  );
});

test('a smaller k lets the top of each list weigh more against documents both lists have', (t) => {
  const lists = [
    ['x', 'both'],
    ['y', 'both'],
  ];
  t.is(fuseByRank(lists, 60)[0]!.id, 'both', '2 / 62 beats 1 / 61');
  t.is(fuseByRank(lists, 0)[0]!.id, 'x', 'with k 0, x (1 / 1) ties both (1 / 2 + 1 / 2) and has the earlier place');
});

test('parseSemanticMode takes the three modes in any case, empty as keyword, and refuses anything else', (t) => {
  t.is(parseSemanticMode('semantic', undefined), 'keyword');
  t.is(parseSemanticMode('semantic', ' '), 'keyword');
  t.is(parseSemanticMode('semantic', 'Vector'), 'vector');
  const error = t.throws(() => parseSemanticMode('semantic', 'semantic'));
  t.like(error, { code: 'invalid_parameter', status: 400 });
});

test('the vector retriever slot takes one retriever; a second is refused naming the first', (t) => {
  const slot = new VectorRetrieverSlot();
  t.is(slot.retriever, null);
  const retriever: VectorRetriever = {
    status: () => ({ ready: false, reason: 'none' }),
    nearest: async () => [],
    similar: async () => [],
  };
  slot.register('semantic', retriever);
  t.is(slot.retriever, retriever);
  t.throws(() => slot.register('other', retriever), { message: /"semantic" is/ });
  t.throws(() => new VectorRetrieverSlot().register('', retriever), { message: /needs a name/ });
});
