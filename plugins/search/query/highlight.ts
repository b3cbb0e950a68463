import { tokenize } from '../engine/text-analyzer.js';

/** Query terms as the engine sees them (engine/text-analyzer.ts): NFC, lower case, runs of letters, marks and digits. */
export function queryTerms(q: string): string[] {
  if (q.trim() === '*') return [];
  return [...new Set(tokenize(q))];
}

/** A word as the engine splits text: letters with their combining marks (Hindi vowel signs, decomposed accents) and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * A highlighter for one query: wraps whole-word matches, and words starting with the last term when
 * the search matched it as a prefix (3+ characters, as the engine does).
 *
 * It walks the text's word runs and compares each, lower-cased, with the terms: one alternation regex
 * with look-arounds did the same but backtracked at every character, which made highlighting the
 * costliest step of a search. Texts that contain no term at all are returned untouched after one scan.
 */
export function highlighter(terms: string[], pre: string, post: string, prefixLastTerm = false): ((text: string) => string) | null {
  if (terms.length === 0) return null;
  const whole = new Set(terms);
  const last = terms[terms.length - 1]!;
  const prefix = prefixLastTerm && last.length >= 3 ? last : null;
  const matches = (word: string) => whole.has(word) || (prefix !== null && word.startsWith(prefix));
  return (text) => {
    const nfc = text.normalize('NFC');
    const lower = nfc.toLowerCase();
    if (!terms.some((t) => lower.includes(t))) return text;
    // Words are compared in NFC, as the engine indexed them; most texts are NFC already.
    const wordKey = nfc === text ? (word: string) => word.toLowerCase() : (word: string) => word.normalize('NFC').toLowerCase();
    let out = '';
    let from = 0;
    for (const m of text.matchAll(WORD)) {
      if (!matches(wordKey(m[0]))) continue;
      out += `${text.slice(from, m.index)}${pre}${m[0]}${post}`;
      from = m.index + m[0].length;
    }
    return from === 0 ? text : out + text.slice(from);
  };
}
