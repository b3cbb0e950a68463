import type { TermSequences } from './term-sequences.js';

/** The learned terms and the training texts rewritten in their ids. */
export interface Vocabulary {
  /** Terms by id, those found in the most texts first. */
  terms: string[];
  /** Number of texts each term occurs in, by id. */
  documentFrequency: Int32Array;
  /** The texts' tokens in vocabulary ids; tokens outside the vocabulary are left out. */
  tokens: Int32Array;
  starts: Int32Array;
}

/**
 * The at most `size` terms found in the most texts, each in at least `minCount` texts; ties go to the term
 * that sorts first, so the choice never depends on the order of the texts.
 */
export function chooseVocabulary(sequences: TermSequences, size: number, minCount: number): Vocabulary {
  const { terms, documentFrequency } = sequences;
  const candidates: number[] = [];
  for (let id = 0; id < terms.length; id++) if (documentFrequency[id]! >= minCount) candidates.push(id);
  candidates.sort(
    (a, b) =>
      documentFrequency[b]! - documentFrequency[a]! || (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0),
  );
  const chosen = candidates.slice(0, size);
  const newId = new Int32Array(terms.length).fill(-1);
  chosen.forEach((oldId, id) => {
    newId[oldId] = id;
  });
  return {
    terms: chosen.map((id) => terms[id]!),
    documentFrequency: Int32Array.from(chosen, (id) => documentFrequency[id]!),
    ...renumber(sequences, newId),
  };
}

function renumber(sequences: TermSequences, newId: Int32Array): { tokens: Int32Array; starts: Int32Array } {
  const { tokens, starts } = sequences;
  const kept = new Int32Array(tokens.length);
  const keptStarts = new Int32Array(starts.length);
  let length = 0;
  for (let text = 0; text + 1 < starts.length; text++) {
    keptStarts[text] = length;
    for (let i = starts[text]!; i < starts[text + 1]!; i++) {
      const id = newId[tokens[i]!]!;
      if (id >= 0) kept[length++] = id;
    }
  }
  keptStarts[starts.length - 1] = length;
  return { tokens: kept.slice(0, length), starts: keptStarts };
}
