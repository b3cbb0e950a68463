import type { SiteDefinition } from '@vela/plugin-search/api';

/** One document action in the original's job-item shape (the body of POST /api/sn/import). */
export interface JobItem {
  locale: string;
  turSNJobAction: 'CREATE' | 'DELETE';
  siteNames: string[];
  attributes: Record<string, unknown>;
  checksum?: string | null;
  providerName?: string;
}

/** The search service failed or did not answer (not a problem of the request made to the connector). */
export class SearchServiceError extends Error {}

/** A site the connector creates when it is missing (the sample's Sample site). */
export type { SiteDefinition };

/**
 * Where documents go: the search plugin of this runtime, or a search service over HTTP. Both take
 * the same job items and report which items the service refused, and why.
 */
export interface SearchTarget {
  readonly mode: 'in-process' | 'http';
  /**
   * Send a batch; resolves with the refused items (index in `items` → reason). A failure of the
   * whole call (service down, bad key) rejects. `wait`: resolve only once the batch is searchable.
   */
  send(items: JobItem[], wait: boolean): Promise<Map<number, string>>;
  /** Every document id of a site and locale, a page at a time. */
  listIds(site: string, locale: string): AsyncIterable<string[]>;
  /** The locales of a site; null when the search service has no site of that name. */
  siteLocales(name: string): Promise<string[] | null>;
  /** Create the site unless one of that name exists; true when it was created. */
  ensureSite(definition: SiteDefinition): Promise<boolean>;
}

/** The refusals of a batch by item index, several reasons of one item joined. */
export function refusedByIndex(rejected: ReadonlyArray<{ index: number; reason: string }>): Map<number, string> {
  const refused = new Map<number, string>();
  for (const r of rejected)
    refused.set(r.index, refused.has(r.index) ? `${refused.get(r.index)}; ${r.reason}` : r.reason);
  return refused;
}

/**
 * Every item of a batch the search service refused as a whole: each with its own reasons when the service
 * gave them (`rejected`), else (an older service, or an item it named no reason for) with the batch's message.
 */
export function allRefused(
  items: readonly JobItem[],
  message: string,
  rejected?: ReadonlyArray<{ index: number; reason: string }>,
): Map<number, string> {
  const own = refusedByIndex(rejected ?? []);
  return new Map(items.map((_, i) => [i, own.get(i) ?? message]));
}
