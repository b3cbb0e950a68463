import test from 'ava';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  composeAnswer,
  ExtractiveProvider,
  MAX_READ_CHARS,
  NOTHING_FOUND,
  pieces,
  withinBudget,
} from '../providers/extractive.js';
import type { Passage } from '../providers/provider.js';
import { rankPassages } from '../rag/retriever.js';
import { keywords, sentences, stem, terms } from '../rag/text.js';
import { MAX_COUNTED_CHARS, TokenCounter } from '../usage/token-counter.js';

const passage = (n: number, text: string, docRank = n - 1): Passage => ({
  n,
  docId: `d${n}`,
  title: `Doc ${n}`,
  url: null,
  text,
  docRank,
});

test('sentences: stops, abbreviations, wrapped lines, paragraphs and list items', (t) => {
  t.deepEqual(sentences('One sentence. Two, e.g. with an abbreviation. Three!'), [
    'One sentence.',
    'Two, e.g. with an abbreviation.',
    'Three!',
  ]);
  t.deepEqual(sentences('A description wrapped\nat seventy-two columns.\n\nA second paragraph'), [
    'A description wrapped at seventy-two columns.',
    'A second paragraph',
  ]);
  t.deepEqual(sentences('Features:\n * fast search\n * facets'), ['Features:', 'fast search', 'facets']);
  t.deepEqual(sentences('version 2.0 is out. it has 3.5 times the speed.'), [
    'version 2.0 is out. it has 3.5 times the speed.',
  ]);
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
  const passages = [
    passage(
      1,
      'Backups copy the data folder. The data folder holds the data. Copy the data folder to another disk before upgrades.',
    ),
  ];
  const { text } = composeAnswer('How do I copy the data folder?', passages);
  t.is(text, 'Backups copy the data folder. [1]');
});

test('without a matching sentence, the closest passage is offered as such; without passages, nothing is claimed', (t) => {
  const { text, cited } = composeAnswer('quantum chromodynamics', [
    passage(1, 'Vela hosts plugins. It has three services.'),
  ]);
  t.is(text, 'I found no passage that answers this directly. The closest match: Vela hosts plugins. [1]');
  t.deepEqual(cited, [1]);
  t.deepEqual(composeAnswer('anything', []), { text: NOTHING_FOUND, cited: [] });
  t.is(
    composeAnswer('hosts', [passage(1, 'Vela hosts plugins.')], { maxSentences: 4, maxChars: 700, cite: false }).text,
    'Vela hosts plugins.',
  );
});

test('pieces keep every character, a few words each', (t) => {
  const text = 'The connector listens on port 30130. [2]';
  const parts = pieces(text);
  t.is(parts.join(''), text);
  t.deepEqual(parts, ['The connector listens ', 'on port 30130. ', '[2]']);
});

test('passages: whole sentences up to the size limit, ranked by BM25 against the question, kept in document order and numbered by document', (t) => {
  const docs = [
    {
      id: 'a',
      title: 'Install',
      url: null,
      rank: 0,
      text: 'Install Node first. Then run npm ci. The service listens on port 2700. Logs go to stdout.',
    },
    {
      id: 'b',
      title: 'Ports',
      url: 'https://x/ports',
      rank: 1,
      text: 'The connector listens on port 30130. The gateway listens on port 2702.',
    },
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
  for await (const event of provider.stream({
    messages: [{ role: 'user', content: 'connector port' }],
    passages,
    signal: new AbortController().signal,
  }))
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
  const stream = provider.stream({
    messages: [{ role: 'user', content: 'connector port' }],
    passages,
    signal: controller.signal,
  });
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  controller.abort(new Error('client left'));
  await t.throwsAsync(() => iterator.next(), { message: 'client left' });
});

test('a definition of the word asked about is preferred over a passing mention; initials do not end a sentence', (t) => {
  t.deepEqual(sentences('0 A.D. (pronounced "zero ey-dee") is a game. It is free.'), [
    '0 A.D. (pronounced "zero ey-dee") is a game.',
    'It is free.',
  ]);
  const passages = [
    passage(1, 'PacVim is a game that teaches you vim commands.'),
    passage(2, 'Vim is an almost compatible version of the UNIX editor Vi.'),
  ];
  t.is(composeAnswer('vim', passages).text, 'Vim is an almost compatible version of the UNIX editor Vi. [2]');
  const pronoun = [
    passage(1, 'It has a text editor pane and a preview pane.'),
    passage(2, 'Pico is a simple text editor.'),
  ];
  t.is(composeAnswer('text editor', pronoun).text, 'Pico is a simple text editor. [2]');
});

test('a question without a content word is answered as one that found nothing, not with the closest passage', (t) => {
  const passages = [passage(1, 'Vela hosts plugins. It has three services.')];
  for (const question of ['the the the', '???', '(((', ''])
    t.deepEqual(composeAnswer(question, passages), { text: NOTHING_FOUND, cited: [] }, question);
});

async function answerOf(
  provider: ExtractiveProvider,
  messages: Array<{ role: 'system' | 'user'; content: string }>,
): Promise<string> {
  let text = '';
  for await (const event of provider.stream({ messages, signal: new AbortController().signal }))
    if (event.type === 'delta') text += event.text;
  return text;
}

test('the built-in provider reads a bounded text: passages up to MAX_READ_CHARS in order, the last one cut', async (t) => {
  const kept = withinBudget([passage(1, 'a'.repeat(30)), passage(2, 'b'.repeat(30)), passage(3, 'c'.repeat(30))], 50);
  t.deepEqual(
    kept.map((p) => [p.n, p.text.length]),
    [
      [1, 30],
      [2, 20],
    ],
  );

  const provider = new ExtractiveProvider();
  const question = { role: 'user' as const, content: 'Which port does the gateway listen on?' };
  const answer = { role: 'system' as const, content: 'The gateway listens on port 2702.' };
  const filler = (chars: number) => ({
    role: 'system' as const,
    content: 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(chars / 28)),
  });
  t.is(await answerOf(provider, [filler(1000), answer, question]), 'The gateway listens on port 2702.');
  t.notRegex(
    await answerOf(provider, [filler(MAX_READ_CHARS), answer, question]),
    /2702/,
    'what lies past the bound is not read',
  );
});

test('the token counter counts exactly up to MAX_COUNTED_CHARS and estimates longer texts from their start', async (t) => {
  const counter = new TokenCounter();
  const short = 'Vela hosts plugins; the gateway listens on port 2702. ';
  t.is(await counter.tokens(short), countTokens(short));
  const long = short.repeat(Math.ceil((MAX_COUNTED_CHARS * 6) / short.length));
  const estimate = await counter.tokens(long);
  const exact = countTokens(long);
  t.true(Math.abs(estimate - exact) / exact < 0.02, `estimate ${estimate}, exact ${exact}`);
  const started = performance.now();
  await counter.tokens(long.repeat(5));
  t.log(`${long.length * 5} characters estimated in ${Math.round(performance.now() - started)} ms`);
});
