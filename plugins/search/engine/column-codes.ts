/**
 * The code tables of the dictionary-coded columns (FacetColumn, StringColumn): one Uint32Array code per
 * document ordinal, a ValueDictionary code or NO_VALUE.
 */

/** Column code of a document without a value. */
export const NO_VALUE = 0xffffffff;

/** A code table for `capacity` ordinals, none of them with a value. */
export function emptyCodes(capacity: number): Uint32Array {
  return new Uint32Array(capacity).fill(NO_VALUE);
}

/** `codes` grown to `capacity` ordinals, the new ones without a value; `codes` itself when it is large enough. */
export function grownCodes(codes: Uint32Array, capacity: number): Uint32Array {
  if (capacity <= codes.length) return codes;
  const next = emptyCodes(capacity);
  next.set(codes);
  return next;
}
