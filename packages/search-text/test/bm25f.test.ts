import test from 'ava';
import {
  checkBm25,
  classFrequency,
  classScores,
  inverseDocumentFrequency,
  lengthNormalisation,
  phraseBonus,
  saturate,
  weightClass,
  weightedFrequencies,
} from '../src/index.js';

test('idf is ln(1 + (N − n + 0.5) / (n + 0.5)): positive, falling as more documents have the term', (t) => {
  t.is(inverseDocumentFrequency(10, 0), Math.log(1 + 10.5 / 0.5));
  t.is(inverseDocumentFrequency(10, 10), Math.log(1 + 0.5 / 10.5));
  t.true(inverseDocumentFrequency(100, 1) > inverseDocumentFrequency(100, 50));
  t.is(inverseDocumentFrequency(10, 25), inverseDocumentFrequency(10, 10), 'a frequency past N counts as N');
});

test('saturation gives 1 for a frequency of 1, rises to at most k1 + 1, and is 1 for any frequency at k1 0', (t) => {
  t.is(saturate(1, 1.2), 1);
  t.true(saturate(2, 1.2) > saturate(1, 1.2));
  t.true(saturate(1000, 1.2) < 2.2);
  t.is(saturate(5, 0), 1);
});

test('length normalisation is 1 at the average length and b scales it', (t) => {
  t.is(lengthNormalisation(10, 10, 0.75), 1);
  t.is(lengthNormalisation(20, 10, 0.75), 1.75);
  t.is(lengthNormalisation(20, 10, 0), 1);
  t.is(lengthNormalisation(5, 0, 0.75), 1, 'no average yet');
});

test('weight classes round tf~ on a log scale, 0 the heaviest, and stand for 4, 2, 1, ½, ¼', (t) => {
  t.deepEqual([0, 1, 2, 3, 4].map(classFrequency), [4, 2, 1, 0.5, 0.25]);
  t.deepEqual(
    [100, 4, 2.5, 2, 1, 0.6, 0.5, 0.25, 0.01, 0].map((tf) => weightClass(tf, 5)),
    [0, 0, 1, 1, 2, 3, 3, 4, 4, 4],
  );
  t.is(weightClass(100, 1), 0);
  const scores = classScores(2, 1.2, 5);
  t.is(scores[2], 2, 'idf × saturate(1)');
  for (let c = 1; c < 5; c++) t.true(scores[c]! < scores[c - 1]!);
});

test('tf~ sums each field’s occurrences times its boost over its length normalisation', (t) => {
  const lengths = { title: { tokens: 4, documents: 2 }, body: { tokens: 20, documents: 2 } };
  const weights = weightedFrequencies(
    [
      { name: 'title', text: 'Rocket science', boost: 2 },
      { name: 'body', text: 'a rocket flies; the rocket lands', boost: 1, b: 0 },
    ],
    (name) => lengths[name as keyof typeof lengths],
  );
  // title: 2 tokens of average 2 → 2 / 1; body: b 0 → 1 per occurrence.
  t.is(weights.get('rocket'), 2 + 2);
  t.is(weights.get('science'), 2);
  t.is(weights.get('lands'), 1);
});

test('the phrase bonus is half the rarer term’s idf; bad k1 and b are refused', (t) => {
  t.is(phraseBonus(3, 1), 0.5);
  t.notThrows(() => checkBm25({ k1: 0, b: 1 }));
  t.throws(() => checkBm25({ k1: -0.1 }), { message: /k1 must be/ });
  t.throws(() => checkBm25({ b: 1.5 }), { message: /b must be/ });
});
