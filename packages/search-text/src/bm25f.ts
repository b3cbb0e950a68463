/**
 * BM25F (Robertson and Zaragoza, "The Probabilistic Relevance Framework", 2009), the relevance rule of the
 * search engines, as pure functions so every engine scores alike.
 *
 * A document's weight for a term sums the term's frequency in each field, times the field's boost, over the
 * field's length normalisation 1 − b + b · length / average length of that field:
 *
 *   tf~(t, d) = Σ_f boost_f · tf(t, f, d) / (1 − b_f + b_f · len(f, d) / avglen_f)
 *
 * and the score of a query sums, over its terms, idf(t) · tf~ · (k1 + 1) / (k1 + tf~), with
 * idf(t) = ln(1 + (N − n + 0.5) / (n + 0.5)) for n of N documents having the term: a term's weight saturates
 * (k1), a rare term counts more than a common one, and a long field dilutes its terms (b).
 *
 * Engines keep tf~ as one of a few weight classes per (term, document) — one byte, and the class picks the
 * posting list, as the relevance slots did — rather than a number each: class c stands for tf~ = 2^(2 − c)
 * (4, 2, 1, ½, ¼ with five classes), the nearest on a log scale. Past 4 the saturation leaves little to tell
 * apart (k1 = 1.2: 4 scores 1.69, 8 scores 1.91 of at most 2.2), and a class is then a third of a posting.
 */

import { tokenize } from './text-analyzer.js';

export interface Bm25Params {
  /** Saturation: how soon more occurrences stop adding (0: a term counts once whatever its frequency). */
  k1: number;
  /** Length normalisation: 0 ignores the field's length, 1 divides by it relative to the average. */
  b: number;
}

export const DEFAULT_BM25: Readonly<Bm25Params> = { k1: 1.2, b: 0.75 };

/** A document's searchable text by field, with the field's weight (its boost) and length normalisation b. */
export interface TextField {
  name: string;
  text: string;
  boost: number;
  /** Length normalisation of this field (Bm25Params.b); default DEFAULT_BM25.b. */
  b?: number;
}

/** Tokens of a field over the documents indexed with it: its average length is tokens / documents. */
export interface FieldLength {
  tokens: number;
  documents: number;
}

/** The tf~ of class 0; each class after it stands for half the one before. */
const TOP_LOG2 = 2;

export function inverseDocumentFrequency(documents: number, frequency: number): number {
  const n = Math.min(Math.max(frequency, 0), documents);
  return Math.log(1 + (documents - n + 0.5) / (n + 0.5));
}

/** tf~ · (k1 + 1) / (k1 + tf~): 0 for 0, 1 for 1, at most k1 + 1. */
export function saturate(weightedFrequency: number, k1: number): number {
  return (weightedFrequency * (k1 + 1)) / (k1 + weightedFrequency);
}

/** The divisor of a field's term frequencies: 1 for a field of average length. */
export function lengthNormalisation(length: number, averageLength: number, b: number): number {
  return averageLength > 0 ? 1 - b + (b * length) / averageLength : 1;
}

/** The weight class (0 = heaviest) of a weighted term frequency, among `classes`. */
export function weightClass(weightedFrequency: number, classes: number): number {
  if (!(weightedFrequency > 0)) return classes - 1;
  const c = Math.round(TOP_LOG2 - Math.log2(weightedFrequency));
  return c < 0 ? 0 : c >= classes ? classes - 1 : c;
}

/** The weighted term frequency a class stands for. */
export function classFrequency(weightClass: number): number {
  return 2 ** (TOP_LOG2 - weightClass);
}

/** A query term's score per weight class: what a document of that class adds to its score. */
export function classScores(idf: number, k1: number, classes: number): Float64Array {
  const scores = new Float64Array(classes);
  for (let c = 0; c < classes; c++) scores[c] = idf * saturate(classFrequency(c), k1);
  return scores;
}

/**
 * What a document whose title has two query terms side by side ("open source" for the query "open source
 * software") adds to its score: half the lower of the two terms' idf, so a phrase of rare terms counts more
 * and never outweighs having a term at all.
 */
export function phraseBonus(idfA: number, idfB: number): number {
  return 0.5 * Math.min(idfA, idfB);
}

/**
 * Each distinct term of a document with its tf~, the fields' averages read from `lengthOf` (the engine's
 * statistics, this document included). The engines compute the same in their own loops over term ids.
 */
export function weightedFrequencies(
  fields: readonly TextField[],
  lengthOf: (field: string) => FieldLength | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const field of fields) {
    const tokens = tokenize(field.text);
    if (tokens.length === 0) continue;
    const stats = lengthOf(field.name);
    const average = stats && stats.documents > 0 ? stats.tokens / stats.documents : tokens.length;
    const unit = field.boost / lengthNormalisation(tokens.length, average, field.b ?? DEFAULT_BM25.b);
    for (const token of tokens) out.set(token, (out.get(token) ?? 0) + unit);
  }
  return out;
}

/** Throws unless k1 and b are finite, k1 ≥ 0 and 0 ≤ b ≤ 1. */
export function checkBm25(params: Partial<Bm25Params>): void {
  const { k1, b } = params;
  if (k1 !== undefined && !(Number.isFinite(k1) && k1 >= 0)) throw new Error(`k1 must be a number ≥ 0, got ${k1}`);
  if (b !== undefined && !(Number.isFinite(b) && b >= 0 && b <= 1))
    throw new Error(`b must be a number from 0 to 1, got ${b}`);
}
