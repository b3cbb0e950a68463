import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createMemoryEngineFactory } from '../engine/memory-engine.js';
import type { IndexableDocument } from '../engine/search-engine.js';
import { phrasesOf } from '../suggest/phrases.js';
import { stopWordsOf } from '../suggest/stop-words.js';
import { createSite, json } from './fixtures.js';

const ENGLISH = stopWordsOf('en_US');
const doc = (id: string, title: string, text = ''): IndexableDocument => ({
  id,
  text: `${title}\n${text}`,
  facets: {},
  numbers: {},
  strings: {},
  phrases: phrasesOf(title, ENGLISH),
});
const schema = { facetFields: [], numberFields: [], stringFields: [] };

let vela: TestRuntime;

const titles: Array<[string, string]> = [
  ['p1', 'Python library for parsing'],
  ['p2', 'Python library for images'],
  ['p3', 'Python bindings for GTK'],
  ['p4', 'Python linter'],
  ['p5', 'Perl library for parsing'],
  ['e1', 'Text editor for the terminal'],
  ['e2', 'Text editor for programmers'],
  ['e3', 'Graphical editor'],
];

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search'] });
  await createSite(vela, 'Sample', { locales: ['en_US'] });
  const r = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: titles.map(([id, title]) => ({
      locale: 'en_US',
      siteNames: ['Sample'],
      attributes: { id, title, text: 'the package' },
    })),
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
});
test.after.always(() => vela?.stop());

const ac = (query: string) => json(vela, 'GET', `/api/sn/Sample/ac?${query}`, undefined, { authorization: '' });

test('phrases: a word and the next one, through stop words, never ending on one', (t) => {
  t.deepEqual(phrasesOf('Python bindings for the GTK toolkit', ENGLISH), [
    'python bindings',
    'bindings for the gtk',
    'for the gtk',
    'the gtk',
    'gtk toolkit',
  ]);
  t.deepEqual(phrasesOf('the', ENGLISH), []);
});

test('one word: indexed words with that prefix, most documents first, stop words left out', async (t) => {
  const r = await ac('q=py&_setlocale=en_US');
  t.is(r.status, 200);
  t.deepEqual(r.body, ['python']);
  t.deepEqual((await ac('q=li')).body, ['library', 'linter'], 'the site has one locale: _setlocale may be left out');
  t.deepEqual((await ac('q=fo')).body, [], '"for" is a stop word');
  t.deepEqual((await ac('q=e')).body, [], 'one character gives nothing');
  t.deepEqual((await ac('q=ed&rows=0')).body, []);
  const control = await ac('q=ed%1B');
  t.is(control.status, 400);
  t.deepEqual(control.body, {
    error: 'invalid_parameter',
    message: 'q must not contain control characters, found U+001B at position 3',
  });
  t.deepEqual(
    (await ac('q=py&_setlocale=en-us')).body,
    (await ac('q=py&_setlocale=en_US')).body,
    'locale spellings as in a search',
  );
});

test('several words: title phrases after the word before, ranked by documents, then words', async (t) => {
  t.deepEqual((await ac('q=python%20li')).body, ['python library', 'python linter']);
  t.deepEqual(
    (await ac('q=python%20')).body,
    ['python library', 'python bindings', 'python linter'],
    'a trailing space: the next word',
  );
  t.deepEqual(
    (await ac('q=bindings%20fo')).body,
    ['bindings for gtk'],
    'a stop word is completed with the word after it',
  );
  t.deepEqual((await ac('q=text%20ed&rows=1')).body, ['text editor']);
  t.deepEqual(
    (await ac('q=graphical%20pa')).body,
    ['graphical package', 'graphical parsing'],
    'no phrase: the words that complete the last one',
  );
});

test('suggestions follow imports and deletes', async (t) => {
  t.deepEqual((await ac('q=zebr')).body, []);
  await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'z1', title: 'Zebra striped widgets' } },
      { locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'z2', title: 'Zebra striped fonts' } },
      { locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'z3', title: 'Zebrafish models' } },
    ],
  });
  t.deepEqual((await ac('q=zebr')).body, ['zebra', 'zebrafish']);
  t.deepEqual((await ac('q=zebra%20s')).body, ['zebra striped']);
  await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: 'z1' } },
      { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: 'z2' } },
      // A new version of z3 replaces its words and phrases.
      { locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'z3', title: 'Zebu herding' } },
    ],
  });
  t.deepEqual((await ac('q=zebr')).body, []);
  t.deepEqual((await ac('q=zebra%20s')).body, []);
  t.deepEqual((await ac('q=zeb')).body, ['zebu']);
});

test('an unknown site or locale has no suggestions (200 [], as the original); a site with several locales and no default needs _setlocale', async (t) => {
  for (const path of ['/api/sn/Nope/ac?q=py', '/api/sn/Sample/ac?q=py&_setlocale=fr_FR']) {
    const none = await json(vela, 'GET', path, undefined, { authorization: '' });
    t.deepEqual([none.status, none.body], [200, []], path);
  }
  await createSite(vela, 'Twin', { locales: ['en_US', 'pt_BR'] });
  const r = await json(vela, 'GET', '/api/sn/Twin/ac?q=py', undefined, { authorization: '' });
  t.is(r.status, 400);
  t.is(r.body.error, 'missing_parameter');
  t.regex(r.body.message, /several locales \(en_US, pt_BR\)/);
  t.is((await json(vela, 'GET', '/api/sn/Sample/ac?q=py&rows=101', undefined, { authorization: '' })).status, 400);
});

test('engine: words and phrases stay right through upserts, removals and a snapshot restore', async (t) => {
  const factory = createMemoryEngineFactory();
  const engine = factory.create(schema);
  engine.upsert([doc('a', 'Open source editor'), doc('b', 'Open source browser'), doc('c', 'Open sesame')]);
  t.is(engine.terms.documentFrequency('open'), 3);
  t.is(engine.terms.phraseFrequency('open source'), 2);
  engine.upsert([doc('b', 'Closed browser')]);
  t.is(engine.terms.phraseFrequency('open source'), 1);
  t.is(engine.terms.documentFrequency('open'), 2);
  engine.remove(['a']);
  t.is(engine.terms.phraseFrequency('open source'), 0);
  const restored = await factory.restore(await engine.exportSnapshot());
  for (const e of [engine, restored]) {
    t.is(e.terms.documentFrequency('open'), 1);
    t.is(e.terms.documentFrequency('source'), 0);
    t.is(e.terms.phraseFrequency('open sesame'), 1);
    t.is(e.terms.phraseFrequency('closed browser'), 1);
    const phrases: string[] = [];
    e.terms.forEachPhrase('', (p) => {
      phrases.push(p);
      return undefined;
    });
    t.deepEqual(phrases, ['closed browser', 'open sesame']);
  }
});

test('phrase counts match a plain count after many replacements and removals (pool compaction)', (t) => {
  const engine = createMemoryEngineFactory().create(schema);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega'];
  let seed = 3;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const live = new Map<string, string>();
  for (let round = 0; round < 20000; round++) {
    const id = `d${Math.floor(random() * 500)}`;
    if (random() < 0.3) {
      engine.remove([id]);
      live.delete(id);
    } else {
      const title = Array.from(
        { length: 2 + Math.floor(random() * 4) },
        () => words[Math.floor(random() * words.length)],
      ).join(' ');
      engine.upsert([doc(id, title)]);
      live.set(id, title);
    }
  }
  for (const a of words) {
    for (const b of words) {
      const phrase = `${a} ${b}`;
      const expected = [...live.values()].filter((title) => phrasesOf(title, ENGLISH).includes(phrase)).length;
      t.is(engine.terms.phraseFrequency(phrase), expected, phrase);
    }
  }
});

test('after a restart from the snapshot, words and phrases are those of the documents', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-ac-'));
  try {
    const first = await startTestRuntime({ plugins: ['search'], dataDir });
    await createSite(first, 'Snap', { locales: ['en_US'] });
    const put = (items: unknown[]) => json(first, 'POST', '/api/sn/import?wait=true', { turingDocuments: items });
    await put(
      ['Quartz clock widgets', 'Quartz crystal tools', 'Quasar engine'].map((title, i) => ({
        locale: 'en_US',
        siteNames: ['Snap'],
        attributes: { id: `q${i}`, title },
      })),
    );
    await put([{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Snap'], attributes: { id: 'q1' } }]);
    await first.stop();
    t.true(first.logs.some((line) => line.msg === 'search index snapshot written'));
    const second = await startTestRuntime({ plugins: ['search'], dataDir });
    try {
      t.true(second.logs.some((line) => line.msg === 'search indexes loaded' && line.snapshot !== null));
      const ac = async (q: string) =>
        (await json(second, 'GET', `/api/sn/Snap/ac?q=${encodeURIComponent(q)}`, undefined, { authorization: '' }))
          .body;
      t.deepEqual(await ac('qua'), ['quartz', 'quasar']);
      t.deepEqual(await ac('quartz c'), ['quartz clock']);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
