import { tokenize } from '@vela/search-text';

/**
 * Query terms as the engine sees them (@vela/search-text's tokenize): NFC, lower case, runs of letters, marks and
 * digits.
 */
export function queryTerms(q: string): string[] {
  if (q.trim() === '*') return [];
  return [...new Set(tokenize(q))];
}

/**
 * A word as the engine splits text: letters with their combining marks (Hindi vowel signs, decomposed accents) and
 * digits.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Whether the text is ASCII, which is NFC already: its UTF-8 length is its length only then (a lone surrogate
 * takes 3 bytes). Ten times faster than a character-class regex over a package description.
 */
const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;
/** One letter, mark or digit: what WORD runs are made of. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
/** The rest of a word from a position (sticky: it matches there or not at all). */
const WORD_AT = /[\p{L}\p{M}\p{N}]+/uy;

/** Whether a word character ends just before `i` (the code point before it, surrogate pairs included). */
function wordCharBefore(s: string, i: number): boolean {
  if (i === 0) return false;
  const low = s.charCodeAt(i - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  return WORD_CHAR.test(s.slice(start, i));
}

function wordEndFrom(s: string, i: number): number {
  WORD_AT.lastIndex = i;
  return WORD_AT.exec(s) ? WORD_AT.lastIndex : i;
}

/**
 * A highlighter for one query: wraps whole-word matches, and words starting with the last term when
 * the search matched it as a prefix (3+ characters, as the engine does).
 *
 * Long stored texts hold few matches: it finds the terms with indexOf in the lower-cased text and checks
 * the word boundaries around each, instead of lower-casing and comparing every word (which made
 * highlighting the costliest step of a search after an alternation regex with look-arounds had been
 * replaced). Where lower-casing changes a text's length, or the text is not NFC, positions in the lower-cased
 * text are not positions in the text, and it walks the words one by one instead.
 */
export function highlighter(
  terms: string[],
  pre: string,
  post: string,
  prefixLastTerm = false,
): ((text: string) => string) | null {
  if (terms.length === 0) return null;
  const whole = new Set(terms);
  const last = terms[terms.length - 1]!;
  const prefix = prefixLastTerm && last.length >= 3 ? last : null;
  const wrap = (text: string, ranges: Array<[number, number]>) => {
    let out = '';
    let from = 0;
    for (const [start, end] of ranges) {
      out += `${text.slice(from, start)}${pre}${text.slice(start, end)}${post}`;
      from = end;
    }
    return from === 0 ? text : out + text.slice(from);
  };
  /** The [start, end) of every highlighted word, in order, found in `lower` (same positions as the text). */
  const rangesIn = (lower: string): Array<[number, number]> => {
    const starts = new Map<number, number>();
    for (const term of whole) {
      for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
        if (starts.has(at) || wordCharBefore(lower, at)) continue;
        const end = wordEndFrom(lower, at);
        if (end === at + term.length || (term === prefix && end > at)) starts.set(at, end);
      }
    }
    return [...starts].sort((a, b) => a[0] - b[0]);
  };
  const matches = (word: string) => whole.has(word) || (prefix !== null && word.startsWith(prefix));
  const byWord = (text: string, nfc: string) => {
    // Words are compared in NFC, as the engine indexed them.
    const wordKey =
      nfc === text ? (word: string) => word.toLowerCase() : (word: string) => word.normalize('NFC').toLowerCase();
    const ranges: Array<[number, number]> = [];
    for (const m of text.matchAll(WORD)) if (matches(wordKey(m[0]))) ranges.push([m.index, m.index + m[0].length]);
    return wrap(text, ranges);
  };
  return (text) => {
    // normalize() copies the text: most stored texts are ASCII and skip it.
    const nfc = isAscii(text) ? text : text.normalize('NFC');
    const lower = nfc.toLowerCase();
    if (!terms.some((t) => lower.includes(t))) return text;
    return nfc === text && lower.length === text.length ? wrap(text, rangesIn(lower)) : byWord(text, nfc);
  };
}
