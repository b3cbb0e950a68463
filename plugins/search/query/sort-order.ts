/** What a `sort` value asks for, before the site says whether the field can be sorted by. */
export type SortOrder =
  | { by: 'relevance' }
  | { by: 'newest' }
  | { by: 'oldest' }
  | { by: 'field'; field: string; direction: 'asc' | 'desc' };

/** `field desc`, `field,desc` (and asc): what clients of the original send, read as field:desc. */
const SPACED = /^([^\s,:]+)(?:\s+|\s*,\s*)(asc|desc)$/i;

/**
 * A sort value read as the original reads it (reference §3.2): `field:asc` ascending, `field:<anything
 * else>` descending, `newest`/`oldest` by date, anything else (`title`, `size up`, empty) relevance. Whether the
 * site can sort by the field (a colon with none before it names none) is the plan's to say (query/plan.ts).
 */
export function parseSortOrder(given: string): SortOrder {
  const sort = given.trim();
  const lower = sort.toLowerCase();
  if (lower === 'newest' || lower === 'oldest') return { by: lower };
  const colon = sort.indexOf(':');
  if (colon >= 0) {
    const field = sort.slice(0, colon).trim();
    return {
      by: 'field',
      field,
      direction:
        sort
          .slice(colon + 1)
          .trim()
          .toLowerCase() === 'asc'
          ? 'asc'
          : 'desc',
    };
  }
  const spaced = SPACED.exec(sort);
  if (spaced) return { by: 'field', field: spaced[1]!, direction: spaced[2]!.toLowerCase() as 'asc' | 'desc' };
  return { by: 'relevance' };
}
