import type { TermDictionary } from '../engine/search-engine.js';
import { lowerBound, successor } from '../engine/sorted-strings.js';

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const DIGIT = /\p{N}/u;
/** Words shorter than this are never corrected: too many words are one edit away. */
const MIN_LENGTH = 3;
/** Corrections remembered per dictionary (until its terms change). */
const CACHE_SIZE = 2000;

export interface SpellCorrection {
  /** The text with each unknown word replaced by its best correction, separators and known words as typed. */
  text: string;
  /** Whether any word was replaced. */
  corrected: boolean;
}

/**
 * Spell check against a site's own vocabulary (one engine: a site and locale). A word is left as it is when
 * some document has it, when it is shorter than three characters or holds a digit; otherwise it becomes the
 * indexed word nearest to it: fewest edits (insertions, deletions, substitutions, and swaps of two neighbouring
 * characters), then most documents, then code-unit order. As in the original's DirectSolrSpellChecker, the
 * first character must match and a word of up to four characters may be one edit away, a longer one two.
 */
export function correctText(terms: TermDictionary, text: string): SpellCorrection {
  let corrected = false;
  const out = text.replace(WORD, (word) => {
    const normalized = word.normalize('NFC').toLowerCase();
    if (normalized.length < MIN_LENGTH || DIGIT.test(normalized) || terms.documentFrequency(normalized) > 0)
      return word;
    const best = bestCorrection(terms, normalized);
    if (best === null) return word;
    corrected = true;
    return best;
  });
  return { text: out, corrected };
}

const caches = new WeakMap<TermDictionary, { generation: number; corrections: Map<string, string | null> }>();

/** The best correction of a word no document has, or null when no indexed word is near enough. */
export function bestCorrection(terms: TermDictionary, word: string): string | null {
  let cache = caches.get(terms);
  if (!cache || cache.generation !== terms.generation) {
    cache = { generation: terms.generation, corrections: new Map() };
    caches.set(terms, cache);
  }
  const known = cache.corrections.get(word);
  if (known !== undefined) return known;
  const found = nearest(terms, word, word.length <= 4 ? 1 : 2);
  if (cache.corrections.size >= CACHE_SIZE) cache.corrections.clear();
  cache.corrections.set(word, found);
  return found;
}

/**
 * Walks the sorted vocabulary as a trie: the edit-distance rows of a term's prefix are reused by the next
 * term that shares it, and every term under a prefix whose row is already past `maxEdits` is skipped with a
 * binary search. Optimal string alignment distance (a swap of neighbours is one edit).
 */
function nearest(terms: TermDictionary, word: string, maxEdits: number): string | null {
  const sorted = terms.sortedTerms();
  const m = word.length;
  const first = word[0]!;
  let i = lowerBound(sorted, first);
  const end = lowerBound(sorted, successor(first));
  const maxDepth = m + maxEdits;
  // rows[d]: distances between the term's first d characters and each prefix of the word.
  const rows: Int32Array[] = [];
  for (let d = 0; d <= maxDepth; d++) rows.push(new Int32Array(m + 1));
  for (let j = 0; j <= m; j++) rows[0]![j] = j;
  let previous = '';
  let best: string | null = null;
  let bestDistance = maxEdits + 1;
  let bestFrequency = 0;
  while (i < end) {
    const term = sorted[i]!;
    let depth = commonPrefix(previous, term);
    let pruned = false;
    while (depth < term.length) {
      if (depth >= maxDepth) {
        pruned = true;
        break;
      }
      const row = rows[depth + 1]!;
      const above = rows[depth]!;
      const c = term.charCodeAt(depth);
      row[0] = depth + 1;
      let rowMin = row[0]!;
      for (let j = 1; j <= m; j++) {
        const cost = word.charCodeAt(j - 1) === c ? 0 : 1;
        let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
        if (
          depth > 0 &&
          j > 1 &&
          c === word.charCodeAt(j - 2) &&
          term.charCodeAt(depth - 1) === word.charCodeAt(j - 1)
        ) {
          value = Math.min(value, rows[depth - 1]![j - 2]! + 1);
        }
        row[j] = value;
        if (value < rowMin) rowMin = value;
      }
      depth++;
      if (rowMin > maxEdits) {
        pruned = true;
        break;
      }
    }
    if (pruned) {
      // Every term under this prefix is too far: skip them all.
      const prefix = term.slice(0, depth);
      previous = prefix;
      i = Math.max(i + 1, lowerBound(sorted, successor(prefix)));
      continue;
    }
    previous = term;
    const distance = rows[term.length]![m]!;
    if (distance <= maxEdits && term !== word) {
      const frequency = terms.documentFrequency(term);
      if (frequency > 0 && (distance < bestDistance || (distance === bestDistance && frequency > bestFrequency))) {
        best = term;
        bestDistance = distance;
        bestFrequency = frequency;
      }
    }
    i++;
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
