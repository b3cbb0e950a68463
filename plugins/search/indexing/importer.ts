import { VelaError } from 'vela/plugin';
import type { AllRefusedDetails, ImportItem, ImportOptions, ImportResult, SearchImporter } from '../api.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import { applySpotlightItems, isSpotlightItem } from '../spotlights/unmanaged-spotlights.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import { checkImportItems, specToField } from './import-items.js';
import type { IndexManager } from './index-manager.js';

const REASONS_SHOWN = 5;

/**
 * The import use case, provided as `search.importer` and behind POST /api/sn/import: check each item,
 * create the fields its specs name, store the batch durably (documents and change log in one
 * transaction), then let the indexer apply it in order.
 */
export class Importer implements SearchImporter {
  /** Called after each committed batch (its seq): announce it, so other processes index it at once. */
  onWritten: ((seq: number) => void) | null = null;

  constructor(
    private readonly sites: SiteStore,
    private readonly docs: DocumentStore,
    private readonly indexes: IndexManager,
    private readonly spotlights?: SpotlightStore,
  ) {}

  async import(
    items: readonly ImportItem[],
    { wait = false, deleteAll = false }: ImportOptions = {},
  ): Promise<ImportResult> {
    // Items of type TUR_SPOTLIGHT are unmanaged spotlights, not documents (reference 5.4).
    const spotlightItems = this.spotlights
      ? items.flatMap((item, index) => (isSpotlightItem(item) ? [{ index, item }] : []))
      : [];
    const positions =
      spotlightItems.length === 0 ? null : items.flatMap((item, index) => (isSpotlightItem(item) ? [] : [index]));
    const batch = checkImportItems(
      positions ? positions.map((i) => items[i]!) : items,
      this.sites,
      deleteAll ? 'DELETE' : undefined,
    );
    if (positions) {
      for (const rejection of batch.rejected) rejection.index = positions[rejection.index]!;
      const done = await applySpotlightItems(
        spotlightItems,
        this.sites,
        this.spotlights!,
        deleteAll ? 'DELETE' : undefined,
      );
      batch.accepted += done.accepted;
      batch.rejected.push(...done.rejected);
      batch.rejected.sort((a, b) => a.index - b.index);
    }
    if (batch.accepted === 0 && batch.rejected.length > 0) {
      const reasons = batch.rejected
        .slice(0, REASONS_SHOWN)
        .map((r) => `#${r.index}${r.id ? ` (${r.id})` : ''}: ${r.reason}`)
        .join('; ');
      const more = batch.rejected.length > REASONS_SHOWN ? `; and ${batch.rejected.length - REASONS_SHOWN} more` : '';
      const details: AllRefusedDetails = { rejected: batch.rejected };
      throw new VelaError('invalid_parameter', `turingDocuments were all rejected: ${reasons}${more}`, 400, details);
    }
    const ignoredSpecs: string[] = [];
    for (const [siteId, specs] of batch.specs)
      ignoredSpecs.push(...(await this.sites.ensureFields(siteId, specs.map(specToField))));
    const written = this.docs.write(batch.changes);
    // While SQLite writes the batch, the main thread analyses its documents for the index (see prepare).
    await this.indexes.prepare(batch.changes, written);
    const seq = await written;
    // The other processes' notice first: it is the longer way to searchable.
    if (seq > 0) this.onWritten?.(seq);
    this.indexes.kick();
    if (wait && seq > 0) await this.indexes.waitFor(seq);
    return {
      accepted: batch.accepted,
      rejected: batch.rejected,
      commits: batch.commits,
      seq,
      indexed: wait,
      ...(ignoredSpecs.length > 0 ? { ignoredSpecs } : {}),
    };
  }

  async *documentIds(site: string, locale: string): AsyncIterable<string[]> {
    const config = this.sites.find(site);
    if (!config) return;
    for await (const page of this.docs.scan(config.site.id, locale)) yield page.map((d) => d.id);
  }
}
