import type { AllRefusedDetails, SearchImporter, SearchSites } from '@vela/plugin-search/api';
import { VelaError } from 'vela/plugin';
import { allRefused, type JobItem, refusedByIndex, type SearchTarget, type SiteDefinition } from './search-target.js';

/**
 * The search plugin hosted in this runtime, through its published services: the same import use case
 * as its HTTP API (`search.importer`), with no HTTP and no JSON round trip.
 */
export class InProcessTarget implements SearchTarget {
  readonly mode = 'in-process' as const;

  constructor(
    private readonly importer: SearchImporter,
    private readonly sites: SearchSites,
  ) {}

  async send(items: JobItem[], wait: boolean): Promise<Map<number, string>> {
    try {
      return refusedByIndex((await this.importer.import(items, { wait })).rejected);
    } catch (error) {
      // Every item was refused: the importer says why for each, as the HTTP API's 400 does.
      if (error instanceof VelaError && error.status === 400)
        return allRefused(items, error.message, (error.details as AllRefusedDetails | undefined)?.rejected);
      throw error;
    }
  }

  listIds(site: string, locale: string): AsyncIterable<string[]> {
    return this.importer.documentIds(site, locale);
  }

  async siteLocales(name: string): Promise<string[] | null> {
    return this.sites.find(name)?.locales ?? null;
  }

  async ensureSite(definition: SiteDefinition): Promise<boolean> {
    if (this.sites.find(definition.name)) return false;
    await this.sites.create(definition);
    return true;
  }
}
