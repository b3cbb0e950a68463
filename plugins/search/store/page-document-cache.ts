import type { Attributes } from '../query/indexable.js';

/**
 * The stored documents that result pages showed lately, least recently used out first, so a search whose
 * page was seen before needs no database round trip (that round trip was a quarter of a search's time).
 *
 * It is kept in step with the index, not with the table: the indexer drops a document's entry when it
 * applies a change to it (`invalidate`) and everything when it rebuilds (`clear`), so a page shows the
 * version its hits were found in, or a newer one, never an older one. A read that began before an
 * invalidation does not fill the cache when it ends (`generation`): it may hold the old version.
 */
export class PageDocumentCache {
  private readonly entries = new Map<string, Attributes>();
  private generation = 0;

  constructor(private readonly capacity: number) {}

  /** Cached documents of these ids, and the ids to read; `generation()` first, to pass to `fill`. */
  lookup(
    siteId: string,
    locale: string,
    ids: readonly string[],
  ): { found: Map<string, Attributes>; missing: string[] } {
    const found = new Map<string, Attributes>();
    const missing: string[] = [];
    for (const id of ids) {
      const k = cacheKey(siteId, locale, id);
      const attributes = this.entries.get(k);
      if (attributes === undefined) {
        missing.push(id);
        continue;
      }
      this.entries.delete(k); // re-inserted: the map's order is the order of use
      this.entries.set(k, attributes);
      found.set(id, attributes);
    }
    return { found, missing };
  }

  currentGeneration(): number {
    return this.generation;
  }

  /** Keep what a read that began at `generation` found, unless an invalidation came in between. */
  fill(siteId: string, locale: string, read: Map<string, Attributes>, generation: number): void {
    if (this.capacity === 0 || generation !== this.generation) return;
    for (const [id, attributes] of read) this.entries.set(cacheKey(siteId, locale, id), attributes);
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(k);
    }
  }

  invalidate(siteId: string, locale: string, ids: Iterable<string>): void {
    this.generation += 1;
    for (const id of ids) this.entries.delete(cacheKey(siteId, locale, id));
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  get maxSize(): number {
    return this.capacity;
  }
}

const cacheKey = (siteId: string, locale: string, id: string) => `${siteId}\u0000${locale}\u0000${id}`;
