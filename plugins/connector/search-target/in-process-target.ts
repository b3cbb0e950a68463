import type { IndexManager } from '../../search/indexing/index-manager.js';
import { checkImportItems, type ImportItem } from '../../search/indexing/import-items.js';
import type { DocumentStore } from '../../search/store/document-store.js';
import type { SiteStore } from '../../search/store/site-store.js';
import type { JobItem, SearchTarget, SiteDefinition } from './search-target.js';

/** What the search plugin provides as `search.importer` (see plugins/search/index.ts). */
export interface SearchImporter {
  docs: DocumentStore;
  indexes: IndexManager;
}

/**
 * The search plugin hosted in this runtime: items go through the same checks as its import API
 * and are written to its document store, with no HTTP and no JSON round trip.
 */
export class InProcessTarget implements SearchTarget {
  readonly mode = 'in-process' as const;

  constructor(private readonly importer: SearchImporter, private readonly sites: SiteStore) {}

  async send(items: JobItem[], wait: boolean): Promise<Map<number, string>> {
    const batch = checkImportItems(items as unknown as ImportItem[], this.sites);
    const refused = new Map<number, string>();
    for (const rejection of batch.rejected) refused.set(rejection.index, refused.has(rejection.index) ? `${refused.get(rejection.index)}; ${rejection.reason}` : rejection.reason);
    const seq = await this.importer.docs.write(batch.changes);
    void this.importer.indexes.drain();
    if (wait && seq > 0) await this.importer.indexes.waitFor(seq);
    return refused;
  }

  async *listIds(site: string, locale: string): AsyncIterable<string[]> {
    const config = this.sites.find(site);
    if (!config) return;
    for await (const page of this.importer.docs.scan(config.site.id, locale)) yield page.map((d) => d.id);
  }

  async siteLocales(name: string): Promise<string[] | null> {
    return this.sites.find(name)?.site.locales ?? null;
  }

  async ensureSite(definition: SiteDefinition): Promise<boolean> {
    if (this.sites.find(definition.name)) return false;
    await this.sites.create(definition);
    return true;
  }
}
