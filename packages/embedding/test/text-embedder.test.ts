import test from 'ava';
import { cosine, TextEmbedder, trainEmbedder } from '../src/index.js';
import { CORPUS, TEXTS } from './corpus.js';

const OPTIONS = { dimensions: 8, seed: 7 };
const embedder = TextEmbedder.train(TEXTS, OPTIONS);

function rank(query: string): Array<{ text: string; topic: string; score: number }> {
  const vector = embedder.embed(query);
  if (!vector) throw new Error(`no vector for ${query}`);
  return CORPUS.map(({ text, topic }) => ({ text, topic, score: cosine(vector, embedder.embed(text)!) })).sort(
    (a, b) => b.score - a.score,
  );
}

test('a query sharing no word with a text still ranks it above the texts of other topics', (t) => {
  const cases = [
    { query: 'text editor', topic: 'editor', document: 'vim emacs keybindings' },
    { query: 'gzip archive', topic: 'compression', document: 'compress bzip2 tar' },
  ];
  for (const { query, topic, document } of cases) {
    const vector = embedder.embed(query)!;
    const related = cosine(vector, embedder.embed(document)!);
    const unrelated = CORPUS.filter((text) => text.topic !== topic).map(({ text }) =>
      cosine(vector, embedder.embed(text)!),
    );
    t.true(related > Math.max(...unrelated), `${query} → ${document}: ${related} vs ${Math.max(...unrelated)}`);
  }
  t.true(
    rank('checkmate knight')
      .slice(0, 16)
      .every(({ topic }) => topic === 'chess'),
    'the 16 chess texts first',
  );
});

test('nearest terms of a word are the words of its topic', (t) => {
  const near = embedder.nearestTerms('editor', 3).map(({ term }) => term);
  t.is(near.length, 3);
  for (const term of near)
    t.true(['text', 'vim', 'emacs', 'syntax', 'highlighting', 'keybindings', 'edit'].includes(term), term);
  t.deepEqual(embedder.nearestTerms('unknownword', 3), []);
  const scores = embedder.nearestTerms('gzip', 5).map(({ score }) => score);
  t.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'best first',
  );
});

test('vectors have the asked dimensions and unit length; a small vocabulary gets at most a dimension per four terms', (t) => {
  const vector = embedder.embed('vim and gzip')!;
  t.is(embedder.dimensions, 8);
  t.is(vector.length, 8);
  t.true(Math.abs(Math.hypot(...vector) - 1) < 1e-6);
  const wide = TextEmbedder.train(TEXTS, { dimensions: 100 });
  t.true(wide.vocabularySize < 100);
  t.is(wide.dimensions, Math.floor(wide.vocabularySize / 4));
  t.is(wide.embed('chess')!.length, wide.dimensions);
  t.true(Math.abs(Math.hypot(...wide.embed('chess')!) - 1) < 1e-6);
});

test('the vocabulary leaves out stop words and terms in fewer than minCount texts', (t) => {
  t.is(embedder.vocabularySize, 40, '32 topic words and 8 filler words; "the" is a stop word');
  t.is(embedder.embed('the'), null);
  const small = TextEmbedder.train(TEXTS, { ...OPTIONS, vocabulary: 10 });
  t.is(small.vocabularySize, 10);
  const strict = TextEmbedder.train([...TEXTS, 'onlyonce chess'], { ...OPTIONS, minCount: 2 });
  t.is(strict.embed('onlyonce'), null);
  const own = TextEmbedder.train(TEXTS, { ...OPTIONS, stopWords: ['vim'] });
  t.is(own.embed('vim'), null);
  t.truthy(own.embed('the'), "the caller's list replaces the default one");
});

test('a text with no learned term has no vector', (t) => {
  t.is(embedder.embed(''), null);
  t.is(embedder.embed('zebra quantum 42'), null);
  t.is(embedder.embed('!!! ...'), null);
  t.truthy(embedder.embed('zebra VIM'), 'case and unknown words do not matter');
});

test('training is deterministic for a seed, and texts may come from a one-pass iterable', (t) => {
  const again = TextEmbedder.train(
    (function* () {
      yield* TEXTS;
    })(),
    OPTIONS,
  );
  t.deepEqual(again.serialize(), embedder.serialize());
  t.is(again.version, embedder.version);
  t.regex(embedder.version, /^[0-9a-f]{16}$/);
  const other = trainEmbedder([...TEXTS, 'vim chess album'], OPTIONS);
  t.not(other.version, embedder.version, 'other texts, another version');
});

test('a serialized embedder comes back with the same vectors and version', (t) => {
  const bytes = embedder.serialize();
  const restored = TextEmbedder.deserialize(bytes);
  t.is(restored.version, embedder.version);
  t.is(restored.dimensions, embedder.dimensions);
  t.is(restored.vocabularySize, embedder.vocabularySize);
  for (const text of [...TEXTS.slice(0, 10), 'text editor']) t.deepEqual(restored.embed(text), embedder.embed(text));
  t.deepEqual(restored.nearestTerms('zip', 4), embedder.nearestTerms('zip', 4));
  const copy = new Uint8Array(bytes.length + 3);
  copy.set(bytes, 3);
  t.is(TextEmbedder.deserialize(copy.subarray(3)).version, embedder.version, 'bytes at an unaligned offset');
});

test('deserialize refuses bytes it did not write', (t) => {
  const bytes = embedder.serialize();
  const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251);
  t.throws(() => TextEmbedder.deserialize(garbage), { message: /not a Vela embedding model/ });
  t.throws(() => TextEmbedder.deserialize(new Uint8Array()), { message: /not a Vela embedding model/ });
  t.throws(() => TextEmbedder.deserialize(bytes.subarray(0, bytes.length - 1)), { message: /truncated/ });
  t.throws(() => TextEmbedder.deserialize(Uint8Array.from([...bytes, 0])), { message: /truncated|past its end/ });
  const future = bytes.slice();
  future[8] = 99;
  t.throws(() => TextEmbedder.deserialize(future), { message: /format 99 is not supported/ });
  const notFinite = bytes.slice();
  new DataView(notFinite.buffer).setFloat32(32, Number.NaN, true);
  t.throws(() => TextEmbedder.deserialize(notFinite), { message: /non-finite/ });
});

test('nonsense options are refused with a RangeError naming the option', (t) => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ dimensions: 0 }, /dimensions must be an integer from 1 to 4096/],
    [{ dimensions: 1.5 }, /dimensions/],
    [{ dimensions: 5000 }, /dimensions/],
    [{ vocabulary: 70000 }, /vocabulary must be an integer from 1 to 65535/],
    [{ window: 0 }, /window/],
    [{ minCount: 0 }, /minCount/],
    [{ seed: -1 }, /seed/],
    [{ seed: Number.NaN }, /seed/],
    [{ dimensions: '8' }, /dimensions/],
    [{ stopWords: 'the' }, /stopWords/],
    [{ removeCommonDirection: 'yes' }, /removeCommonDirection/],
  ];
  for (const [options, message] of bad)
    t.throws(() => TextEmbedder.train(TEXTS, options), { instanceOf: RangeError, message });
  t.throws(() => embedder.nearestTerms('vim', -1), { instanceOf: RangeError });
});

test('texts with no term to learn give an embedder that embeds nothing', (t) => {
  const empty = TextEmbedder.train([], OPTIONS);
  t.is(empty.vocabularySize, 0);
  t.is(empty.embed('vim'), null);
  t.is(TextEmbedder.deserialize(empty.serialize()).version, empty.version);
  t.is(TextEmbedder.train(['the', 'a lonely word'], OPTIONS).vocabularySize, 0);
});

test('the common direction can be kept', (t) => {
  const plain = TextEmbedder.train(TEXTS, { ...OPTIONS, removeCommonDirection: false });
  t.not(plain.version, embedder.version);
  t.is(plain.embed('vim')!.length, 8);
});
