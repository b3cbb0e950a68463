import { tokenize } from '@vela/search-text';
import type { TermDictionary } from '../engine/search-engine.js';
import type { SiteConfig } from '../store/site-types.js';
import { TopList } from './top-list.js';

/** Results of the page whose text the similar documents are looked for with. */
export const MLT_SOURCES = 3;
/** Similar documents listed. */
export const MLT_ROWS = 5;
/** Terms looked for: the ones with the highest tf-idf in the sources. */
const MLT_TERMS = 25;
/** Words shorter than this carry little meaning (the original asked Solr for 7; 4 keeps short names like "java"). */
const MIN_WORD_LENGTH = 4;
const DIGITS_ONLY = /^\p{N}+$/u;

/** The fields whose text More Like This reads: those with `mlt`, else the site's title, description and text fields. */
export function mltFields(config: SiteConfig): string[] {
  const chosen = config.fields.filter((f) => f.enabled && f.mlt).map((f) => f.name);
  if (chosen.length > 0) return chosen;
  const { defaultTitleField, defaultDescriptionField, defaultTextField } = config.site;
  return [
    ...new Set([defaultTitleField, defaultDescriptionField, defaultTextField].filter((f): f is string => f !== null)),
  ];
}

/** The text of those fields in a stored document. */
export function mltText(attributes: Record<string, unknown>, fields: readonly string[]): string {
  const parts: string[] = [];
  for (const field of fields) {
    const value = Object.hasOwn(attributes, field) ? attributes[field] : undefined;
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') parts.push(v);
  }
  return parts.join('\n');
}

/**
 * The terms that best describe the texts: term frequency in them times inverse document frequency in the
 * engine (ln(N / df)), leaving out stop words, short words, numbers, and terms no other document has.
 */
export function weightedTerms(
  texts: readonly string[],
  terms: TermDictionary,
  stopWords: ReadonlySet<string>,
): Array<[string, number]> {
  const frequencies = new Map<string, number>();
  for (const text of texts) for (const term of tokenize(text)) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  const documents = Math.max(terms.documents, 1);
  const best = new TopList(MLT_TERMS);
  const weights = new Map<string, number>();
  for (const [term, tf] of frequencies) {
    if (term.length < MIN_WORD_LENGTH || stopWords.has(term) || DIGITS_ONLY.test(term)) continue;
    const df = terms.documentFrequency(term);
    if (df < 2) continue;
    const weight = tf * Math.log(documents / df);
    if (weight <= 0) continue;
    weights.set(term, weight);
    best.offer(term, weight);
  }
  return best.values().map((term) => [term, weights.get(term)!]);
}
