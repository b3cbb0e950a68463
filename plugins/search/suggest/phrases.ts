import { tokenize } from '@vela/search-text';

/** Words of a title looked at for phrases: titles are short, and a long one only adds rare phrases. */
const MAX_WORDS = 64;
/** Stop words a phrase may carry between its two words ("bindings for python"). */
const MAX_STOP_WORDS = 3;

/**
 * The phrases of a text that autocomplete offers after a word: each word with the next one, or with the
 * stop words after it and the word that follows them ("open source", "bindings for python"). A phrase never
 * ends on a stop word, so a completion is always zero or more stop words and one word, as in the original.
 */
export function phrasesOf(text: string, stopWords: ReadonlySet<string>): string[] {
  const words = tokenize(text);
  const count = Math.min(words.length, MAX_WORDS);
  const out = new Set<string>();
  for (let i = 0; i < count - 1; i++) {
    let j = i + 1;
    while (j < count && stopWords.has(words[j]!) && j - i <= MAX_STOP_WORDS) j++;
    if (j >= count || stopWords.has(words[j]!)) continue;
    out.add(words.slice(i, j + 1).join(' '));
  }
  return [...out];
}
