import test from 'ava';
import { DenseSlots } from '../../engine/dense-slots.js';
import { type QueryTermPostings, TextIndex } from '../../engine/text-index.js';
import { TextMatcher } from '../../engine/text-matcher.js';
import { seededRandom, WORDS } from './reference-search.js';

const CAPACITY = 400;

function randomText(random: () => number): string {
  // Common words (the first four) on most documents, the rest on few: the shape that makes dense slots pay.
  const words = Array.from(
    { length: 2 + Math.floor(random() * 10) },
    () => WORDS[Math.floor(random() ** 3 * WORDS.length)]!,
  );
  return words.join(' ');
}

/** (ordinal, score) pairs of a match, sorted: the order of the matcher's output is not part of its contract. */
function matched(matcher: TextMatcher, postings: QueryTermPostings[]): Array<[number, number]> {
  const ordinals = new Uint32Array(CAPACITY);
  const scores = new Float64Array(CAPACITY);
  const found = matcher.match(postings, CAPACITY, ordinals, scores);
  return Array.from({ length: found }, (_, i): [number, number] => [ordinals[i]!, scores[i]!]).sort(
    (a, b) => a[0] - b[0],
  );
}

function lookUp(index: TextIndex, terms: string[], prefixLast: boolean): QueryTermPostings[] | null {
  const postings: QueryTermPostings[] = [];
  for (const [i, term] of terms.entries()) {
    const found = index.lookup(term, prefixLast && i === terms.length - 1);
    if (found === null) return null;
    // Any scores falling with the class, the same for a term however it is read.
    found.scores = Float64Array.from({ length: index.resolution }, (_, c) => (term.length + 1) / (c + 1));
    postings.push(found);
  }
  return postings;
}

test('a term tested through its dense slots gives the same hits and scores as walking its lists, before and after writes', (t) => {
  const random = seededRandom(16);
  const index = new TextIndex(5);
  const live = new Set<number>();
  const matcher = new TextMatcher();
  let compared = 0;
  for (let round = 0; round < 6; round++) {
    for (let n = 0; n < 60; n++) {
      const ordinal = Math.floor(random() * CAPACITY);
      if (live.has(ordinal) && random() < 0.3) {
        index.remove(ordinal);
        live.delete(ordinal);
      } else {
        index.add(ordinal, [{ name: '', text: randomText(random), boost: 1 }]);
        live.add(ordinal);
      }
    }
    for (let q = 0; q < 40; q++) {
      const terms = [
        ...new Set(
          Array.from({ length: 2 + Math.floor(random() * 2) }, () => WORDS[Math.floor(random() * WORDS.length)]!),
        ),
      ];
      const prefixLast = random() < 0.3;
      const asked = terms.map((term, i) => (prefixLast && i === terms.length - 1 ? term.slice(0, 3) : term));
      const walked = lookUp(index, asked, prefixLast);
      const tested = lookUp(index, asked, prefixLast);
      if (walked === null || tested === null) continue;
      const rarest = Math.min(...tested.map((p) => p.size));
      for (const posting of tested)
        if (posting.term !== undefined && posting.size > rarest)
          posting.dense = index.denseSlotsOf(posting.term, CAPACITY);
      if (!tested.some((p) => p.dense !== undefined)) continue;
      t.deepEqual(matched(matcher, tested), matched(matcher, walked), terms.join(' '));
      compared++;
    }
  }
  t.true(compared > 50, `only ${compared} queries went through dense slots`);
});

test('dense slots are dropped on the next write, and kept within their byte budget, least recently used out first', (t) => {
  const slots = new DenseSlots(250);
  let fills = 0;
  const fill = (value: number) => (array: Uint8Array) => {
    fills++;
    array.fill(value);
  };
  const first = slots.get(1, 0, 100, fill(1))!;
  t.is(slots.get(1, 0, 100, fill(9)), first, 'kept while the index is unchanged');
  t.is(fills, 1);
  t.is(slots.get(1, 1, 100, fill(2))![0], 2, 'made again after a write');
  slots.get(2, 1, 100, fill(3));
  slots.get(1, 1, 100, fill(9)); // term 1 used last: term 2 goes first
  slots.get(3, 1, 100, fill(4));
  t.is(slots.get(1, 1, 100, fill(9))![0], 2, 'the recently used array stayed');
  t.is(slots.get(2, 1, 100, fill(5))![0], 5, 'the least recently used array was dropped and is made again');
  t.is(slots.get(4, 1, 300, fill(6)), undefined, 'an array over the whole budget is not made');
});
