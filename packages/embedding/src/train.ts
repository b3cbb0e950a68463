import { commonDirection } from './common-direction.js';
import { countCooccurrences } from './cooccurrence.js';
import type { EmbedderModel } from './model-format.js';
import { type EmbedderOptions, resolveOptions } from './options.js';
import { positivePmi } from './ppmi.js';
import { truncatedSvd } from './svd.js';
import { readTermSequences } from './term-sequences.js';
import { textVector } from './text-vector.js';
import { normalizeInPlace } from './vector-math.js';
import { chooseVocabulary, type Vocabulary } from './vocabulary.js';

/**
 * Terms per learned dimension at least: a site of 40 learned terms gets 10 dimensions. With as many dimensions as
 * terms, each word would be its own direction and no two words alike.
 */
const TERMS_PER_DIMENSION = 4;

/** At most this many training texts (evenly spread) estimate the common direction: more changes little. */
const DIRECTION_SAMPLE = 10000;

/**
 * Singular values below this share of the largest are rounding noise (a small corpus has fewer independent
 * directions than dimensions): their columns get no weight.
 */
const NOISE = 1e-6;

/**
 * Learns word vectors from the texts alone: the vocabulary, co-occurrence counts within the window, their
 * positive PMI, and its truncated SVD. Word vector = row of U, unit length, every singular direction weighted
 * alike (Levy, Goldberg & Dagan 2015 find U and U · √S better than U · S; on the Debian corpus's known-item
 * queries, scripts/bench/relevance-queries.json, U ranks the target better than U · √S: MRR@10 0.366 against
 * 0.349, by text vectors alone).
 */
export function trainModel(texts: Iterable<string>, options?: EmbedderOptions): EmbedderModel {
  const settings = resolveOptions(options);
  const vocabulary = chooseVocabulary(
    readTermSequences(texts, settings.stopWords),
    settings.vocabulary,
    settings.minCount,
  );
  // Every direction weighs alike (rows of U), so none may be noise: a small vocabulary gets fewer dimensions.
  const d = Math.max(1, Math.min(settings.dimensions, Math.floor(vocabulary.terms.length / TERMS_PER_DIMENSION)));
  const counts = countCooccurrences(vocabulary.tokens, vocabulary.starts, vocabulary.terms.length, settings.window);
  const svd = truncatedSvd(positivePmi(counts), d, { seed: settings.seed });
  const weights = Float64Array.from(svd.values, (value) => (value > NOISE * svd.values[0]! ? 1 : 0));
  // A term seen beside no other learned term has no vector: it is dropped, so every known term has meaning.
  const kept: number[] = [];
  const rows: Float32Array[] = [];
  for (let term = 0; term < vocabulary.terms.length; term++) {
    const row = new Float64Array(d);
    for (let c = 0; c < d; c++) row[c] = svd.left[term * d + c]! * weights[c]!;
    if (!normalizeInPlace(row)) continue;
    kept.push(term);
    rows.push(Float32Array.from(row));
  }
  const vectors = new Float32Array(kept.length * d);
  rows.forEach((row, i) => {
    vectors.set(row, i * d);
  });
  const textCount = vocabulary.starts.length - 1;
  const model: EmbedderModel = {
    dimensions: d,
    terms: kept.map((term) => vocabulary.terms[term]!),
    idf: Float32Array.from(kept, (term) => Math.log(1 + textCount / vocabulary.documentFrequency[term]!)),
    vectors,
    common: null,
  };
  if (settings.removeCommonDirection && kept.length > 0)
    model.common = sampleDirection(vocabulary, kept, model, settings.seed);
  return model;
}

function sampleDirection(vocabulary: Vocabulary, kept: number[], model: EmbedderModel, seed: number): Float32Array {
  const newId = new Int32Array(vocabulary.terms.length).fill(-1);
  kept.forEach((term, id) => {
    newId[term] = id;
  });
  const { tokens, starts } = vocabulary;
  const textCount = starts.length - 1;
  const step = Math.max(1, Math.ceil(textCount / DIRECTION_SAMPLE));
  const d = model.dimensions;
  const sample: Float32Array[] = [];
  for (let text = 0; text < textCount; text += step) {
    const ids: number[] = [];
    for (let i = starts[text]!; i < starts[text + 1]!; i++) if (newId[tokens[i]!]! >= 0) ids.push(newId[tokens[i]!]!);
    const vector = textVector(ids, model);
    if (vector) sample.push(vector);
  }
  const matrix = new Float64Array(sample.length * d);
  sample.forEach((vector, i) => {
    matrix.set(vector, i * d);
  });
  return commonDirection(matrix, sample.length, d, seed);
}
