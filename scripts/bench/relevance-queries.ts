// Writes scripts/bench/relevance-queries.json, the known-item queries of the relevance benchmark
// (scripts/bench/relevance.ts): each one 2 or 3 words a user could remember from one Debian package's
// description, with that package as its one target. Seeded, so the same corpus always gives the same file; the
// file is shipped so that every run (and every engine version) answers the same queries.
//
//   node --import tsx scripts/bench/relevance-queries.ts [corpus.jsonl.gz]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tokenize } from '@vela/search-text';
import { stopWordsOf } from '../../plugins/search/suggest/stop-words.js';
import { packageRoot } from '../../runtime/paths.js';
import { type CorpusDocument, loadCorpus, seededRandom } from './search-corpus.js';

export const QUERIES_FILE = path.join(packageRoot, 'scripts', 'bench', 'relevance-queries.json');

/** One known-item query: its words (in the order the package's text has them) and the id of its one target. */
export interface KnownItemQuery {
  text: string;
  target: number;
  /** The target's package name, for reading the file. */
  name: string;
}

export interface KnownItemQueries {
  seed: number;
  documents: number;
  rule: string;
  queries: KnownItemQuery[];
}

const SEED = 20261128;
const COUNT = 400;
/** A word in more packages than this (~0.8 % of the corpus) is too common to be the one a user remembers. */
const MAX_DOCUMENT_FREQUENCY = 500;
const RULE =
  'For a package drawn at random (seeded, each at most once): its distinct words of 3+ ASCII letters from the ' +
  'title and the long description, leaving out English stop words, words found in the package name, and words ' +
  `in only that package or in more than ${MAX_DOCUMENT_FREQUENCY} packages; a package with fewer than 3 such ` +
  'words is skipped. 2 or 3 words (even odds) are drawn without replacement, each weighted by its idf, doubled ' +
  "for a title word, and put in the order the package's text has them. Every query is kept, whatever the " +
  'systems answer.';

/** Distinct tokens in order of first occurrence. */
const distinctTokens = (text: string) => [...new Set(tokenize(text))];

function documentFrequencies(documents: CorpusDocument[]): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const d of documents)
    for (const token of distinctTokens(`${d.name} ${d.title} ${d.body}`))
      frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
  return frequencies;
}

/** Draws `count` items without replacement, each in proportion to its weight. */
function drawWeighted<T>(items: Array<{ item: T; weight: number }>, count: number, random: () => number): T[] {
  const left = [...items];
  const drawn: T[] = [];
  while (drawn.length < count && left.length > 0) {
    let x = random() * left.reduce((sum, entry) => sum + entry.weight, 0);
    let at = 0;
    while (at < left.length - 1 && x >= left[at]!.weight) x -= left[at++]!.weight;
    drawn.push(left.splice(at, 1)[0]!.item);
  }
  return drawn;
}

export function makeKnownItemQueries(documents: CorpusDocument[]): KnownItemQueries {
  const random = seededRandom(SEED);
  const frequencies = documentFrequencies(documents);
  const stopWords = stopWordsOf('en_US');
  const picked = new Set<number>();
  const queries: KnownItemQuery[] = [];
  while (queries.length < COUNT) {
    const at = Math.floor(random() * documents.length);
    if (picked.has(at)) continue;
    picked.add(at);
    const document = documents[at]!;
    const name = document.name.toLowerCase();
    const titleWords = new Set(tokenize(document.title));
    const candidates = distinctTokens(`${document.title} ${document.body}`).filter((word) => {
      const df = frequencies.get(word) ?? 0;
      return (
        /^[a-z]{3,}$/.test(word) &&
        !stopWords.has(word) &&
        !name.includes(word) &&
        df >= 2 &&
        df <= MAX_DOCUMENT_FREQUENCY
      );
    });
    if (candidates.length < 3) continue;
    const weighted = candidates.map((word) => ({
      item: word,
      weight: Math.log(documents.length / frequencies.get(word)!) * (titleWords.has(word) ? 2 : 1),
    }));
    const words = drawWeighted(weighted, random() < 0.5 ? 2 : 3, random);
    words.sort((a, b) => candidates.indexOf(a) - candidates.indexOf(b));
    queries.push({ text: words.join(' '), target: document.id, name: document.name });
  }
  return { seed: SEED, documents: documents.length, rule: RULE, queries };
}

/** One query a line, as the formatter (biome) keeps the file. */
function formatted({ queries, ...head }: KnownItemQueries): string {
  const lines = Object.entries(head).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  const items = queries.map(
    (q) => `    { "text": ${JSON.stringify(q.text)}, "target": ${q.target}, "name": ${JSON.stringify(q.name)} }`,
  );
  return `{\n${lines.join('\n')}\n  "queries": [\n${items.join(',\n')}\n  ]\n}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = path.resolve(process.argv[2] ?? path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'));
  const made = makeKnownItemQueries(loadCorpus(corpus));
  writeFileSync(QUERIES_FILE, formatted(made));
  console.log(`${made.queries.length} queries written to ${path.relative(process.cwd(), QUERIES_FILE)}`);
}
