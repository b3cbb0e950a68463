/**
 * How text becomes terms, for documents and queries alike: Unicode NFC, lower case, split on anything that
 * is not a letter, combining mark or digit. No stemming and no stop words, so a term matches exactly.
 */

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/** The text's terms in order, repeats included. */
export function tokenize(text: string): string[] {
  const parts = text.normalize('NFC').toLowerCase().split(NON_WORD);
  // split leaves an empty string at either end when the text starts or ends with a separator.
  let from = 0;
  let to = parts.length;
  if (to > 0 && parts[0] === '') from++;
  if (to > from && parts[to - 1] === '') to--;
  return from === 0 && to === parts.length ? parts : parts.slice(from, to);
}

/** A document's distinct terms, each with its relevance slot (0 = best). */
export interface AnalyzedText {
  terms: string[];
  slots: Uint8Array;
}

/**
 * Distinct terms in order of first occurrence, each with the slot flexsearch itself would give it: the
 * position of the first occurrence scaled to `resolution` slots (flexsearch's get_score), so a term near the
 * start of the text (the title) ranks before one deep in the body.
 */
export function analyze(text: string, resolution: number): AnalyzedText {
  const tokens = tokenize(text);
  const seen = new Set<string>();
  const terms: string[] = [];
  const positions: number[] = [];
  for (let position = 0; position < tokens.length; position++) {
    const token = tokens[position]!;
    if (seen.has(token)) continue;
    seen.add(token);
    terms.push(token);
    positions.push(position);
  }
  const slots = new Uint8Array(terms.length);
  for (let i = 0; i < terms.length; i++) slots[i] = slotOf(positions[i]!, tokens.length, resolution);
  return { terms, slots };
}

/** The relevance slot of a term first seen at `position` of `tokenCount` tokens (see analyze). */
export function slotOf(position: number, tokenCount: number, resolution: number): number {
  if (position === 0 || resolution <= 1) return 0;
  if (tokenCount <= resolution) return position;
  return (((resolution - 1) / tokenCount) * position + 1) | 0;
}
