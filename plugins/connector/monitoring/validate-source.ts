import type { StatusStore } from '../pipeline/status-store.js';
import type { SearchTarget } from '../search-target/search-target.js';
import type { Source } from '../sources/source-store.js';

/** The difference between what the connector indexed and what the search index holds, per site and locale. */
export interface ValidationDifference {
  source: string;
  /** "<site>/<locale>" → ids recorded INDEXED that the search index does not hold. */
  missing: Record<string, string[]>;
  /** "<site>/<locale>" → ids in the search index that no connector source tracks. */
  extra: Record<string, string[]>;
  counts: { indexed: number; inSearch: number; missing: number; extra: number };
}

/**
 * Compare a source with the search index. Documents of other connector sources sharing a site are
 * not "extra"; documents imported into the site by other means are.
 */
export async function validateSource(
  source: Source,
  statuses: StatusStore,
  target: SearchTarget,
): Promise<ValidationDifference> {
  const expected = new Map<string, Set<string>>();
  for (const site of source.sites) expected.set(`${site}/${source.locale}`, new Set());
  let indexed = 0;
  for (const record of await statuses.expected(source.name)) {
    indexed += 1;
    for (const site of record.sites) {
      const key = `${site}/${record.locale}`;
      if (!expected.has(key)) expected.set(key, new Set());
      expected.get(key)!.add(record.objectId);
    }
  }
  const tracked = await statuses.trackedIds();
  const result: ValidationDifference = {
    source: source.name,
    missing: {},
    extra: {},
    counts: { indexed, inSearch: 0, missing: 0, extra: 0 },
  };
  for (const [key, ids] of expected) {
    const [site, locale] = key.split('/') as [string, string];
    const found = new Set<string>();
    const extra: string[] = [];
    for await (const page of target.listIds(site, locale)) {
      for (const id of page) {
        found.add(id);
        if (!ids.has(id) && !tracked.has(id)) extra.push(id);
      }
    }
    const missing = [...ids].filter((id) => !found.has(id)).sort();
    result.counts.inSearch += found.size;
    result.counts.missing += missing.length;
    result.counts.extra += extra.length;
    result.missing[key] = missing;
    result.extra[key] = extra.sort();
  }
  return result;
}
