import type { EngineSchema, IndexableDocument } from '../engine/search-engine.js';
import type { Attributes } from '../query/indexable.js';
import type { SiteConfig } from '../store/site-types.js';

interface Prepared {
  id: string;
  config: SiteConfig;
  schema: EngineSchema;
  locale: string;
  indexable: IndexableDocument;
}

/**
 * What the indexer would make of a document (`toIndexable`), made while its batch was being written, for the
 * indexer to take once the batch is committed (see IndexManager.prepare).
 *
 * Kept by the very attributes object the batch stores: the indexer takes a version's analysis only for that
 * object (the one the store hands it, see DocumentStore.currentVersions) and only under the same site
 * configuration, engine schema and locale, which is all `toIndexable` reads besides the id and attributes.
 * Anything else (a batch that failed, a version overwritten before it was indexed) is never taken, and goes
 * with its attributes object: weak keys, nothing to clean up.
 */
export class PreparedDocuments {
  private readonly byAttributes = new WeakMap<Attributes, Prepared>();

  put(attributes: Attributes, prepared: Prepared): void {
    this.byAttributes.set(attributes, prepared);
  }

  /** The analysis made for exactly this version under exactly these settings, taken out; else undefined. */
  take(
    id: string,
    attributes: Attributes,
    config: SiteConfig,
    schema: EngineSchema,
    locale: string,
  ): IndexableDocument | undefined {
    const prepared = this.byAttributes.get(attributes);
    if (prepared === undefined) return undefined;
    this.byAttributes.delete(attributes);
    const same =
      prepared.id === id && prepared.config === config && prepared.schema === schema && prepared.locale === locale;
    return same ? prepared.indexable : undefined;
  }
}
