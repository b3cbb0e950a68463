/**
 * The language spell checker's work, run on the runtime's worker pool (a suggestion costs milliseconds to
 * tens of milliseconds of CPU, and loading a dictionary up to a second): each worker thread loads a
 * dictionary the first time its locale is asked for and keeps it.
 *
 * en_US: nspell over dictionary-en. pt_BR: Hunspell itself (hunspell-asm, WebAssembly) over dictionary-pt,
 * because nspell cannot load that dictionary (its affix expansion ran for more than ten minutes on Node 20).
 */
import { createRequire } from 'node:module';

export interface SpellCheckerInput {
  locale: string;
  text: string;
}

interface Checker {
  correct(word: string): boolean;
  suggest(word: string): string[];
}

/** Suggestions kept per misspelled word, words corrected per text, and sentences answered. */
const SUGGESTIONS_PER_WORD = 3;
const MAX_WORDS = 20;
const MAX_SENTENCES = 10;
/** Longer words are left as they are: suggesting for them costs more than it could find. */
const MAX_WORD_LENGTH = 40;
const WORD = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;

const require = createRequire(import.meta.url);
const loaded = new Map<string, Promise<Checker>>();

async function english(): Promise<Checker> {
  const nspell = require('nspell') as (dictionary: { aff: Uint8Array; dic: Uint8Array }) => Checker;
  const dictionary = (await import('dictionary-en')).default;
  return nspell(dictionary);
}

async function portuguese(): Promise<Checker> {
  const { loadModule } = (await import('hunspell-asm')) as typeof import('hunspell-asm');
  const dictionary = (await import('dictionary-pt')).default;
  const factory = await loadModule();
  const hunspell = factory.create(
    factory.mountBuffer(dictionary.aff, 'pt_BR.aff'),
    factory.mountBuffer(dictionary.dic, 'pt_BR.dic'),
  );
  return { correct: (word) => hunspell.spell(word), suggest: (word) => hunspell.suggest(word) };
}

export const SPELL_CHECKER_LOCALES: Record<string, () => Promise<Checker>> = { en_US: english, pt_BR: portuguese };

function checker(locale: string): Promise<Checker> {
  const load = SPELL_CHECKER_LOCALES[locale];
  if (!load) throw new Error(`no dictionary for ${locale}`);
  let promise = loaded.get(locale);
  if (!promise) {
    promise = load();
    loaded.set(locale, promise);
  }
  return promise;
}

/**
 * Candidate sentences, as the original's checker answered: the misspelled words are taken from the last to
 * the first, and each of a word's suggestions is put into every candidate made so far. [] when every word
 * is spelled right (or none has a suggestion).
 */
export default async function spellCheck({ locale, text }: SpellCheckerInput): Promise<string[]> {
  const spell = await checker(locale);
  const misspelled: Array<{ start: number; end: number; suggestions: string[] }> = [];
  for (const match of text.matchAll(WORD)) {
    if (misspelled.length >= MAX_WORDS) break;
    const word = match[0];
    if (word.length > MAX_WORD_LENGTH || spell.correct(word)) continue;
    const suggestions = spell.suggest(word).slice(0, SUGGESTIONS_PER_WORD);
    if (suggestions.length > 0) misspelled.push({ start: match.index, end: match.index + word.length, suggestions });
  }
  if (misspelled.length === 0) return [];
  let candidates = [text];
  for (const { start, end, suggestions } of misspelled.reverse()) {
    const next: string[] = [];
    for (const candidate of candidates) {
      for (const suggestion of suggestions) {
        if (next.length < MAX_SENTENCES) next.push(candidate.slice(0, start) + suggestion + candidate.slice(end));
      }
    }
    candidates = next;
  }
  return candidates;
}
