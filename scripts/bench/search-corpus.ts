import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { seededUniform } from '@vela/embedding';
import { tokenize } from '@vela/search-text';

/** One Debian package record of the benchmark corpus (shared/corpus/build-debian-corpus.mjs). */
export interface CorpusDocument {
  id: number;
  name: string;
  title: string;
  body: string;
  section: string;
  priority: string;
  arch: string;
  maintainer: string;
  tags: string[];
  version: string;
  size: number;
}

/** A timed query: two words from one real title, filtered on that package's arch=all or its section. */
export interface BenchQuery {
  text: string;
  words: [string, string];
  filter: { field: 'arch' | 'section'; value: string };
}

export function loadCorpus(file: string): CorpusDocument[] {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const documents: CorpusDocument[] = [];
  for (const line of lines) if (line.trim() !== '') documents.push(JSON.parse(line) as CorpusDocument);
  return documents;
}

/** The text every system indexes for a document. */
export function searchableText(document: CorpusDocument): string {
  return `${document.name} ${document.title} ${document.body}`;
}

/** Deterministic 32-bit PRNG (mulberry32), so every run and every system gets the same queries. */
export const seededRandom = seededUniform;

export function makeQueries(documents: CorpusDocument[], count: number, seed: number): BenchQuery[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const queries: BenchQuery[] = [];
  while (queries.length < count) {
    const document = pick(documents);
    // Words of 3+ letters, not numbers: the words people type, and ones every system tokenises alike.
    const words = [...new Set(tokenize(document.title))].filter((word) => word.length >= 3 && !/^\d+$/.test(word));
    if (words.length < 2) continue;
    const first = pick(words);
    const second = pick(words.filter((word) => word !== first));
    const filter =
      random() < 0.5
        ? { field: 'arch' as const, value: 'all' }
        : { field: 'section' as const, value: document.section };
    queries.push({ text: `${first} ${second}`, words: [first, second], filter });
  }
  return queries;
}

/** The search site fields of the Debian corpus, with its long description under `textField`. */
export function debianSiteFields(textField: string): Array<Record<string, unknown>> {
  return [
    { name: 'id', type: 'STRING' },
    { name: 'name', type: 'STRING' },
    { name: 'title', type: 'TEXT', hl: true },
    { name: textField, type: 'TEXT', hl: true },
    { name: 'section', type: 'STRING', facet: true, facetPosition: 1 },
    { name: 'arch', type: 'STRING', facet: true, facetPosition: 2 },
    { name: 'priority', type: 'STRING', facet: true, facetPosition: 3 },
    { name: 'tags', type: 'STRING', multiValued: true, facet: true, facetPosition: 4, facetItemType: 'OR' },
    { name: 'maintainer', type: 'STRING' },
    { name: 'version', type: 'STRING' },
    { name: 'size', type: 'INT' },
  ];
}

/**
 * Autocomplete queries from words of real titles: a prefix (2 characters or more) of one word, or a whole
 * word then a prefix of the next one, half each.
 */
export function makeAutocompleteQueries(documents: CorpusDocument[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  while (out.length < count) {
    const words = documents[Math.floor(random() * documents.length)]!.title.toLowerCase()
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .filter((w) => w.length >= 2 && !/\d/.test(w));
    if (words.length === 0) continue;
    const at = Math.floor(random() * words.length);
    const word = words[at]!;
    const prefix = word.slice(0, 2 + Math.floor(random() * (word.length - 1)));
    out.push(out.length % 2 === 0 || at === 0 ? prefix : `${words[at - 1]} ${prefix}`);
  }
  return out;
}
