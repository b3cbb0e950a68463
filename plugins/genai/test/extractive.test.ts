import test from 'ava';
import { composeAnswer, ExtractiveProvider, NOTHING_FOUND, pieces } from '../providers/extractive.js';
import type { Passage } from '../providers/provider.js';
import { rankPassages } from '../rag/retriever.js';
import { keywords, sentences, stem, terms } from '../rag/text.js';

const passage = (n: number, text: string, docRank = n - 1): Passage => ({ n, docId: `d${n}`, title: `Doc ${n}`, url: null, text, docRank });

test('sentences: stops, abbreviations, wrapped lines, paragraphs and list items', (t) => {
  t.deepEqual(sentences('One sentence. Two, e.g. with an abbreviation. Three!'), ['One sentence.', 'Two, e.g. with an abbreviation.', 'Three!']);
  t.deepEqual(sentences('A description wrapped\nat seventy-two columns.\n\nA second paragraph'), [
    'A description wrapped at seventy-two columns.',
    'A second paragraph',
  ]);
  t.deepEqual(sentences('Features:\n * fast search\n * facets'), ['Features:', 'fast search', 'facets']);
  t.deepEqual(sentences('version 2.0 is out. it has 3.5 times the speed.'), ['version 2.0 is out. it has 3.5 times the speed.']);
  const long = sentences(`${'word '.repeat(200)}end.`);
  t.true(long.every((s) => s.length <= 401));
  t.true(long.length > 1);
});

test('terms and keywords: stop words out, light stemming', (t) => {
  t.deepEqual(keywords('How do I back up the data folder?'), ['back', 'data', 'folder']);
  t.deepEqual(terms('Editors edit files; browsing browsers'), ['editor', 'edit', 'file', 'brows', 'browser']);
  t.is(stem('libraries'), 'library');
  t.is(stem('boxes'), 'box');
  t.is(stem('class'), 'class');
  t.is(stem('2700s'), '2700s');
});

test('the answer is the sentences that cover the question, in document order, each run cited once', (t) => {
  const passages = [
    passage(1, 'The gateway listens on port 2702. It proxies requests to upstreams.'),
    passage(2, 'The connector listens on port 30130. It indexes sources. Runs are recorded.'),
    passage(3, 'Nothing here is about the question at all.'),
  ];
  const { text, cited } = composeAnswer('Which port does the connector listen on?', passages);
  t.is(text, 'The connector listens on port 30130. [2]');
  t.deepEqual(cited, [2]);

  const both = composeAnswer('ports of the gateway and the connector', passages);
  t.is(both.text, 'The gateway listens on port 2702. [1] The connector listens on port 30130. [2]');
  t.deepEqual(both.cited, [1, 2]);
});

test('a term already covered counts less: no second sentence that only repeats the first', (t) => {
  const passages = [passage(1, 'Backups copy the data folder. The data folder holds the data. Copy the data folder to another disk before upgrades.')];
  const { text } = composeAnswer('How do I copy the data folder?', passages);
  t.is(text, 'Backups copy the data folder. [1]');
});

test('without a matching sentence, the closest passage is offered as such; without passages, nothing is claimed', (t) => {
  const { text, cited } = composeAnswer('quantum chromodynamics', [passage(1, 'Vela hosts plugins. It has three services.')]);
  t.is(text, 'I found no passage that answers this directly. The closest match: Vela hosts plugins. [1]');
  t.deepEqual(cited, [1]);
  t.deepEqual(composeAnswer('anything', []), { text: NOTHING_FOUND, cited: [] });
  t.is(composeAnswer('hosts', [passage(1, 'Vela hosts plugins.')], { maxSentences: 4, maxChars: 700, cite: false }).text, 'Vela hosts plugins.');
});

test('pieces keep every character, a few words each', (t) => {
  const text = 'The connector listens on port 30130. [2]';
  const parts = pieces(text);
  t.is(parts.join(''), text);
  t.deepEqual(parts, ['The connector listens ', 'on port 30130. ', '[2]']);
});

test('passages: whole sentences up to the size limit, ranked by BM25 against the question, kept in document order and numbered by document', (t) => {
  const docs = [
    { id: 'a', title: 'Install', url: null, rank: 0, text: 'Install Node first. Then run npm ci. The service listens on port 2700. Logs go to stdout.' },
    { id: 'b', title: 'Ports', url: 'https://x/ports', rank: 1, text: 'The connector listens on port 30130. The gateway listens on port 2702.' },
  ];
  const kept = rankPassages('connector port', docs, { passages: 2, passageChars: 40 });
  t.deepEqual(
    kept.map((p) => [p.n, p.docId, p.text]),
    [
      [1, 'a', 'The service listens on port 2700.'],
      [2, 'b', 'The connector listens on port 30130.'],
    ],
  );
});

test('the provider streams the composed answer in pieces and stops when aborted', async (t) => {
  const provider = new ExtractiveProvider();
  const passages = [passage(1, 'The connector listens on port 30130. It indexes sources.')];
  const events = [];
  for await (const event of provider.stream({ messages: [{ role: 'user', content: 'connector port' }], passages, signal: new AbortController().signal }))
    events.push(event);
  t.deepEqual(events.at(-1), { type: 'end', finishReason: 'stop', toolCalls: [], usage: null, model: 'extractive' });
  t.is(
    events
      .filter((e) => e.type === 'delta')
      .map((e) => (e as { text: string }).text)
      .join(''),
    'The connector listens on port 30130. [1]',
  );

  const controller = new AbortController();
  const stream = provider.stream({ messages: [{ role: 'user', content: 'connector port' }], passages, signal: controller.signal });
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  controller.abort(new Error('client left'));
  await t.throwsAsync(() => iterator.next(), { message: 'client left' });
});

test('a definition of the word asked about is preferred over a passing mention; initials do not end a sentence', (t) => {
  t.deepEqual(sentences('0 A.D. (pronounced "zero ey-dee") is a game. It is free.'), ['0 A.D. (pronounced "zero ey-dee") is a game.', 'It is free.']);
  const passages = [passage(1, 'PacVim is a game that teaches you vim commands.'), passage(2, 'Vim is an almost compatible version of the UNIX editor Vi.')];
  t.is(composeAnswer('vim', passages).text, 'Vim is an almost compatible version of the UNIX editor Vi. [2]');
  const pronoun = [passage(1, 'It has a text editor pane and a preview pane.'), passage(2, 'Pico is a simple text editor.')];
  t.is(composeAnswer('text editor', pronoun).text, 'Pico is a simple text editor. [2]');
});
