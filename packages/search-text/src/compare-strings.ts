/** Order by UTF-16 code units: deterministic, locale-free, the order every engine sorts values and terms in. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
