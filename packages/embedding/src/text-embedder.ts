import { tokenize } from '@vela/search-text';
import { deserializeModel, type EmbedderModel, modelVersion, serializeModel } from './model-format.js';
import type { EmbedderOptions } from './options.js';
import { textVector } from './text-vector.js';
import { trainModel } from './train.js';

/** A term and its cosine similarity to the term asked about. */
export interface TermSimilarity {
  term: string;
  score: number;
}

/**
 * The built-in embedder: learns word vectors from a site's own texts (no model server), and turns any text
 * into a unit vector whose cosine with another text's says how close their meanings are, even with no
 * word in common.
 */
export class TextEmbedder {
  readonly dimensions: number;
  readonly vocabularySize: number;
  /** Short hash of the model: changes whenever training gave other vectors. */
  readonly version: string;
  private readonly ids: Map<string, number>;

  private constructor(private readonly model: EmbedderModel) {
    this.dimensions = model.dimensions;
    this.vocabularySize = model.terms.length;
    this.version = modelVersion(serializeModel(model));
    this.ids = new Map(model.terms.map((term, id) => [term, id]));
  }

  /** Learns from the texts (read once, so a generator will do); the same texts, options and seed give the same bytes. */
  static train(texts: Iterable<string>, options?: EmbedderOptions): TextEmbedder {
    return new TextEmbedder(trainModel(texts, options));
  }

  /** The embedder `serialize` wrote; throws an Error on any other bytes. */
  static deserialize(bytes: Uint8Array): TextEmbedder {
    return new TextEmbedder(deserializeModel(bytes));
  }

  /** The text's unit vector, or null when it has no learned term. */
  embed(text: string): Float32Array | null {
    if (typeof text !== 'string') throw new TypeError('embed takes a string');
    const ids: number[] = [];
    for (const token of tokenize(text)) {
      const id = this.ids.get(token);
      if (id !== undefined) ids.push(id);
    }
    return textVector(ids, this.model);
  }

  /** The k learned terms closest in meaning to `term` (itself excluded), best first; none for an unknown term. */
  nearestTerms(term: string, k = 10): TermSimilarity[] {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a whole number, got ${String(k)}`);
    const id = this.ids.get(String(term).normalize('NFC').toLowerCase());
    if (id === undefined || k === 0) return [];
    const { vectors, terms } = this.model;
    const d = this.dimensions;
    const best: TermSimilarity[] = [];
    for (let other = 0; other < terms.length; other++) {
      if (other === id) continue;
      let score = 0;
      for (let i = 0; i < d; i++) score += vectors[id * d + i]! * vectors[other * d + i]!;
      if (best.length === k && score <= best[k - 1]!.score) continue;
      let at = best.length < k ? best.length : k - 1;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { term: terms[other]!, score });
      if (best.length > k) best.pop();
    }
    return best;
  }

  serialize(): Uint8Array {
    return serializeModel(this.model);
  }
}

/** TextEmbedder.train as a function. */
export function trainEmbedder(texts: Iterable<string>, options?: EmbedderOptions): TextEmbedder {
  return TextEmbedder.train(texts, options);
}
