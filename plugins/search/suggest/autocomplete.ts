import { tokenize } from '@vela/search-text';
import type { MaybePromise, TermDictionary } from '../engine/search-engine.js';
import { lowerBound, successor } from '../engine/sorted-strings.js';
import { TopList } from './top-list.js';

/** Suggestions when a request gives no rows (the original's default), and the most a request may ask for. */
export const AUTOCOMPLETE_DEFAULT_ROWS = 20;
export const AUTOCOMPLETE_MAX_ROWS = 100;

const ENDS_WITH_SEPARATOR = /[^\p{L}\p{M}\p{N}]$/u;
/**
 * A prefix that starts more indexed words than this (a short one: "li" starts 9,400 words of the Debian
 * corpus) has its best words kept, so the range is not read again at each keystroke. The list is exact while
 * the index does not change, and used for at most STALE_MS after a change before it is read again: short
 * prefixes may lag behind imports by that long. Longer prefixes are always read exactly.
 */
const CACHED_RANGE = 256;
const STALE_MS = 2000;
const CACHED_PREFIXES = 4096;

/**
 * Autocomplete over a site's indexed terms and title phrases (one engine: a site and locale), ranked by the
 * number of documents that have them.
 *
 * - One word typed (`pyth`): the indexed words that start with it, stop words left out.
 * - Several (`python lib`, or `python ` with a trailing space): the title phrases that start with the word
 *   before the last one and continue with a word starting with the last one (`python library`,
 *   `bindings for python` after `bindings fo`), each after the words typed before; then, when fewer than
 *   `rows` were found, the indexed words that complete the last one, after every word typed before.
 *
 * A query of one character or none has no suggestions. Each suggestion is the whole query completed, in
 * lower case (the original's suggester worked the same way: lower-cased shingles of the title and text).
 */
export function autocomplete(terms: TermDictionary, q: string, rows: number, stopWords: ReadonlySet<string>): string[] {
  const typed = rows > 0 ? typedText(q) : null;
  if (!typed) return [];
  const { prefix, before } = typed;
  if (before.length === 0) return wordsStartingWith(terms, prefix, rows, stopWords, '');

  const lead = before.slice(0, -1).join(' ');
  const head = lead === '' ? '' : `${lead} `;
  const previous = before[before.length - 1]!;
  const found = new TopList(rows);
  terms.forEachPhrase(`${previous} ${prefix}`, (phrase, frequency) => {
    found.offer(head + phrase, frequency);
    return undefined;
  });
  const suggestions = found.values();
  if (suggestions.length < rows && prefix !== '') {
    const seen = new Set(suggestions);
    for (const completion of wordsStartingWith(terms, prefix, rows, stopWords, `${before.join(' ')} `)) {
      if (suggestions.length >= rows) break;
      if (!seen.has(completion)) suggestions.push(completion);
    }
  }
  return suggestions;
}

interface CachedWords {
  generation: number;
  at: number;
  words: string[];
}
const caches = new WeakMap<TermDictionary, Map<string, CachedWords>>();

/** The `rows` indexed words with the most documents that start with `prefix` (not stop words), after `head`. */
function wordsStartingWith(
  terms: TermDictionary,
  prefix: string,
  rows: number,
  stopWords: ReadonlySet<string>,
  head: string,
): string[] {
  const sorted = terms.sortedTerms();
  const low = lowerBound(sorted, prefix);
  const high = prefix === '' ? sorted.length : lowerBound(sorted, successor(prefix));
  let words: string[];
  if (high - low > CACHED_RANGE) {
    let cache = caches.get(terms);
    if (!cache) {
      cache = new Map();
      caches.set(terms, cache);
    }
    const now = Date.now();
    let entry = cache.get(prefix);
    if (!entry || (entry.generation !== terms.generation && now - entry.at > STALE_MS)) {
      if (cache.size >= CACHED_PREFIXES) cache.clear();
      entry = {
        generation: terms.generation,
        at: now,
        words: best(terms, sorted, low, high, AUTOCOMPLETE_MAX_ROWS, stopWords),
      };
      cache.set(prefix, entry);
    }
    words = entry.words.slice(0, rows);
  } else {
    words = best(terms, sorted, low, high, rows, stopWords);
  }
  return head === '' ? words : words.map((word) => head + word);
}

function best(
  terms: TermDictionary,
  sorted: readonly string[],
  low: number,
  high: number,
  rows: number,
  stopWords: ReadonlySet<string>,
): string[] {
  const found = new TopList(rows);
  for (let i = low; i < high; i++) {
    const term = sorted[i]!;
    if (stopWords.has(term)) continue;
    const frequency = terms.documentFrequency(term);
    if (frequency > 0) found.offer(term, frequency);
  }
  return found.values();
}

/** How many documents passing a request's filters have every word of a text (the engine counts them). */
export type FilteredCount = (text: string) => MaybePromise<number>;

/**
 * What was typed: the word being completed (the last one, '' after a separator) and the words before it; null for
 * one character or none, which has no suggestions.
 */
function typedText(q: string): { prefix: string; before: string[] } | null {
  if (q.trim().length <= 1) return null;
  const words = tokenize(q);
  if (words.length === 0) return null;
  const completesLast = !ENDS_WITH_SEPARATOR.test(q);
  return {
    prefix: completesLast ? words[words.length - 1]! : '',
    before: completesLast ? words.slice(0, -1) : words,
  };
}

/**
 * Most candidate completions one filtered autocomplete counts: a short prefix under a narrow filter could otherwise
 * count thousands of rare words; the best-known ones are counted first.
 */
export const MAX_FILTERED_PROBES = 2000;

/**
 * Autocomplete restricted to the documents that pass a request's filters: the same completions (the words that
 * complete the last one typed, and those that follow the word before it in the titles), each counted over the
 * filtered documents (those that have every word of the suggestion, as a search for it finds them) and ranked by
 * that count; completions no filtered document has are left out. Words are counted most frequent in the site first,
 * and the counting stops once no word left can rank (a word's count in the site bounds its filtered count).
 */
export async function autocompleteFiltered(
  terms: TermDictionary,
  q: string,
  rows: number,
  stopWords: ReadonlySet<string>,
  count: FilteredCount,
): Promise<string[]> {
  const typed = rows > 0 ? typedText(q) : null;
  if (!typed) return [];
  const { prefix, before } = typed;
  const head = before.length === 0 ? '' : `${before.join(' ')} `;
  const candidates = new Set<string>();
  if (before.length > 0)
    terms.forEachPhrase(`${before[before.length - 1]} ${prefix}`, (phrase) => {
      candidates.add(phrase.slice(phrase.indexOf(' ') + 1));
      return undefined;
    });
  if (prefix !== '') {
    const sorted = terms.sortedTerms();
    const high = lowerBound(sorted, successor(prefix));
    for (let i = lowerBound(sorted, prefix); i < high; i++) candidates.add(sorted[i]!);
  }
  const ranked = [...candidates]
    .filter((word) => !stopWords.has(word))
    .map((word) => ({ word, bound: terms.documentFrequency(word) }))
    .filter((c) => c.bound > 0)
    .sort((a, b) => b.bound - a.bound || (a.word < b.word ? -1 : 1))
    .slice(0, MAX_FILTERED_PROBES);
  const found = new TopList(rows);
  /** The counts of the suggestions kept, highest first: the last is the one a word must beat. */
  const kept: number[] = [];
  for (const { word, bound } of ranked) {
    if (kept.length === rows && bound < kept[rows - 1]!) break;
    const n = await count(head + word);
    if (n === 0) continue;
    found.offer(head + word, n);
    kept.push(n);
    kept.sort((a, b) => b - a);
    kept.length = Math.min(kept.length, rows);
  }
  return found.values();
}
