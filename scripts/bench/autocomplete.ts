// Autocomplete and site spell check on the Debian corpus, in-process: one engine (as the search service
// keeps per site and locale) built with the title phrases the service gives it, then seeded queries.
//
//   node --expose-gc --import tsx scripts/bench/autocomplete.ts [corpus.jsonl.gz] [--queries N]
//
// Queries, from words of real titles: a prefix of one word (2 characters or more), and a whole word then
// a prefix of the next one, half each; spell check: words of titles with one or two letters changed.
// Prints one JSON line per measurement (see docs/BENCHMARKS.md). Goal: autocomplete p50 under
// 0.2 ms and p99 under 2 ms. Not a test: nothing is asserted.
import os from 'node:os';
import path from 'node:path';
import { tokenize } from '@vela/search-text';
import { createMemoryEngineFactory } from '../../plugins/search/engine/memory-engine.js';
import type { IndexableDocument } from '../../plugins/search/engine/search-engine.js';
import { autocomplete } from '../../plugins/search/suggest/autocomplete.js';
import { phrasesOf } from '../../plugins/search/suggest/phrases.js';
import { correctText } from '../../plugins/search/suggest/spell-check.js';
import { stopWordsOf } from '../../plugins/search/suggest/stop-words.js';
import { packageRoot } from '../../runtime/paths.js';
import { printGoal } from './goal.js';
import { type CorpusDocument, loadCorpus, makeAutocompleteQueries, seededRandom } from './search-corpus.js';
import { toIndexable } from './search-systems.js';
import { percentile } from './stats.js';

const args = process.argv.slice(2);
const queriesAt = args.indexOf('--queries');
const queryCount = queriesAt >= 0 ? Number(args[queriesAt + 1]) : 2000;
const positional = args.filter((a, i) => !a.startsWith('--') && i !== queriesAt + 1);
const corpusFile = path.resolve(positional[0] ?? path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'));
const STOP = stopWordsOf('en_US');
const ROWS = 10;

const gc = (globalThis as { gc?: () => void }).gc;
async function heapUsed(): Promise<number | null> {
  if (!gc) return null;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  // Typed arrays' contents (nearly all of the engine's data) live outside heapUsed.
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}
const round = (n: number) => Math.round(n * 1000) / 1000;
function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1]!),
  };
}

function withPhrases(document: CorpusDocument): IndexableDocument {
  return { ...toIndexable(document), phrases: phrasesOf(document.title, STOP) };
}

function misspell(documents: CorpusDocument[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const out: string[] = [];
  while (out.length < count) {
    const words = tokenize(documents[Math.floor(random() * documents.length)]!.title).filter(
      (w) => w.length >= 5 && /^[a-z]+$/.test(w),
    );
    if (words.length === 0) continue;
    let word = words[Math.floor(random() * words.length)]!;
    for (let edit = 0; edit < 1 + Math.floor(random() * 2); edit++) {
      const at = 1 + Math.floor(random() * (word.length - 1));
      word = word.slice(0, at) + letters[Math.floor(random() * letters.length)] + word.slice(at + 1);
    }
    out.push(word);
  }
  return out;
}

async function main(): Promise<void> {
  const documents = loadCorpus(corpusFile);
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
  console.log(
    JSON.stringify({
      bench: 'autocomplete',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu,
      documents: documents.length,
    }),
  );

  const factory = createMemoryEngineFactory();
  const schema = { facetFields: ['section', 'arch', 'priority', 'tags'], numberFields: ['size'], stringFields: [] };
  for (const phrases of [false, true]) {
    const before = await heapUsed();
    const start = performance.now();
    const engine = factory.create(schema);
    for (let i = 0; i < documents.length; i += 5000)
      engine.upsert(documents.slice(i, i + 5000).map(phrases ? withPhrases : toIndexable));
    const indexMs = performance.now() - start;
    const after = await heapUsed();
    console.log(
      JSON.stringify({
        measure: 'engine build',
        phrases,
        indexMs: Math.round(indexMs),
        heapMB: before === null || after === null ? null : round((after - before) / 2 ** 20),
      }),
    );
    if (!phrases) continue;

    const queries = makeAutocompleteQueries(documents, queryCount, 20261123);
    for (const q of queries.slice(0, 200)) autocomplete(engine.terms, q, ROWS, STOP);
    const times: number[] = [];
    let suggestions = 0;
    for (const q of queries) {
      const t0 = performance.now();
      suggestions += autocomplete(engine.terms, q, ROWS, STOP).length;
      times.push(performance.now() - t0);
    }
    const oneWord = queries.map((q, i) => [q, times[i]!] as const).filter(([q]) => !q.includes(' '));
    const twoWords = queries.map((q, i) => [q, times[i]!] as const).filter(([q]) => q.includes(' '));
    console.log(
      JSON.stringify({
        system: 'autocomplete',
        queries: queries.length,
        rows: ROWS,
        avgSuggestions: round(suggestions / queries.length),
        ...summary(times),
        goal: 'p50 < 0.2 ms, p99 < 2 ms',
      }),
    );
    const sorted = [...times].sort((a, b) => a - b);
    printGoal('autocomplete in-process p50 (ms)', sorted[Math.floor(sorted.length * 0.5)]!, '<', 0.2);
    printGoal(
      'autocomplete in-process p99 (ms)',
      sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
      '<',
      2,
    );
    console.log(
      JSON.stringify({
        system: 'autocomplete, one word',
        queries: oneWord.length,
        ...summary(oneWord.map(([, t]) => t)),
      }),
    );
    console.log(
      JSON.stringify({
        system: 'autocomplete, a word then a prefix',
        queries: twoWords.length,
        ...summary(twoWords.map(([, t]) => t)),
      }),
    );
    const sample = ['pyth', 'python li', 'gnome sh', 'lib', 'text ed', 'ne'].map((q) => ({
      q,
      suggestions: autocomplete(engine.terms, q, 5, STOP),
    }));
    console.log(JSON.stringify({ sample }));

    // Spell check of unknown words: each has its own cache entry, so the first call of each is measured.
    const wrong = misspell(documents, 500, 7);
    const spellTimes: number[] = [];
    let corrected = 0;
    for (const word of wrong) {
      const t0 = performance.now();
      if (correctText(engine.terms, word).corrected) corrected++;
      spellTimes.push(performance.now() - t0);
    }
    console.log(
      JSON.stringify({
        system: 'site spell check, one unknown word (uncached)',
        words: wrong.length,
        corrected,
        ...summary(spellTimes),
      }),
    );
    const known = queries.filter((q) => !q.includes(' ')).slice(0, 500);
    const knownTimes = known.map((q) => {
      const t0 = performance.now();
      correctText(engine.terms, q);
      return performance.now() - t0;
    });
    console.log(
      JSON.stringify({
        system: 'site spell check, typed prefixes (mostly known words)',
        words: known.length,
        ...summary(knownTimes),
      }),
    );
  }
}

await main();
