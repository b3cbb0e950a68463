import type { IndexManager } from '../indexing/index-manager.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SearchParams } from './search-params.js';

/** A search's answer as it was sent, cut around its `responseTime` digits so a hit reports its own time. */
export interface CachedAnswer {
  readonly siteId: string;
  readonly head: Buffer;
  readonly tail: Buffer;
  /** The parameters the search settled (its locale), told to the search.searched taps on a hit like on any search. */
  readonly params: SearchParams;
  readonly count: number;
  readonly bytes: number;
}

export interface AnswerCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
}

/** The first member of that name in an answer is queryContext's: pagination, before it, holds no such member. */
const RESPONSE_TIME = Buffer.from('"responseTime":');
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Whole search answers, as bytes, by request (method, URL, body), least recently used out first past
 * `maxBytes`. The original system caches its answers by site and query the same way.
 *
 * An answer depends on the site's settings, fields and locales, its spotlights, its indexes and its stored
 * documents, and on nothing else (not the caller, not the time). Each of those announces its changes by site
 * (`invalidateSite`), or all at once (`clear`), and the site's answers go. A search that began before such a
 * change may have read some of the old state, so what it ends with is not kept (`ticket`, then `put`): like
 * the page-document cache, an answer here is never older than what the indexes held when it was asked.
 */
export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private generation = 0;
  private size = 0;
  private hits = 0;
  private misses = 0;
  /** Past this, one answer (a thousand rows, say) would push out most of the others: it is not kept. */
  private readonly maxEntryBytes: number;

  constructor(private readonly maxBytes: number) {
    this.maxEntryBytes = Math.floor(maxBytes / 8);
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(key: string): CachedAnswer | undefined {
    const answer = this.entries.get(key);
    if (answer === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Re-inserted: the map's order is the order of use.
    this.entries.delete(key);
    this.entries.set(key, answer);
    return answer;
  }

  /** Taken before a search starts; `put` keeps its answer only if nothing changed since. */
  ticket(): number {
    return this.generation;
  }

  put(key: string, ticket: number, siteId: string, body: Buffer, params: SearchParams, count: number): void {
    if (!this.enabled || ticket !== this.generation) return;
    const bytes = body.length + key.length * 2;
    if (bytes > this.maxEntryBytes) return;
    const at = body.indexOf(RESPONSE_TIME);
    if (at < 0) return;
    const from = at + RESPONSE_TIME.length;
    let to = from;
    while (to < body.length && body[to]! >= DIGIT_0 && body[to]! <= DIGIT_9) to++;
    this.remove(key);
    this.entries.set(key, { siteId, head: body.subarray(0, from), tail: body.subarray(to), params, count, bytes });
    this.size += bytes;
    for (const [oldest, answer] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= answer.bytes;
    }
  }

  /** A site's settings, fields, locales, spotlights, indexes or documents changed: its answers go. */
  invalidateSite(siteId: string): void {
    this.generation += 1;
    for (const [key, answer] of this.entries) if (answer.siteId === siteId) this.remove(key);
  }

  /** Returns how many answers went. */
  clear(): number {
    this.generation += 1;
    const removed = this.entries.size;
    this.entries.clear();
    this.size = 0;
    return removed;
  }

  stats(): AnswerCacheStats {
    return {
      entries: this.entries.size,
      bytes: this.size,
      maxBytes: this.maxBytes,
      hits: this.hits,
      misses: this.misses,
    };
  }

  private remove(key: string): void {
    const answer = this.entries.get(key);
    if (!answer) return;
    this.entries.delete(key);
    this.size -= answer.bytes;
  }
}

/** Everything an answer depends on announces its changes to the cache, in this process and from the others. */
export function followSiteChanges(
  answers: AnswerCache,
  sources: { sites: SiteStore; indexes: IndexManager; spotlights: SpotlightStore },
): void {
  const invalidate = (siteId: string | null): void => {
    if (siteId === null) answers.clear();
    else answers.invalidateSite(siteId);
  };
  sources.sites.onChange((change) => invalidate(change.siteId));
  sources.indexes.onIndexChange(invalidate);
  sources.spotlights.onMatchChange(invalidate);
}

/** The answer's bytes with the time this request took in place of the time its search took. */
export function answerBytes(answer: CachedAnswer, responseTimeMs: number): Buffer {
  const digits = Buffer.from(String(Math.round(responseTimeMs)), 'latin1');
  return Buffer.concat([answer.head, digits, answer.tail], answer.head.length + digits.length + answer.tail.length);
}
