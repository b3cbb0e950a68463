import type {
  SearchImporter,
  SearchSite,
  SearchSites,
  SiteDefaultFields,
  SiteSearch,
  StoredDocument,
} from '@vela/plugin-search/api';
import type { SemanticSettings } from '../store/settings-store.js';
import { documentText, embeddedFields, textHash } from './passages.js';

/** A document's text as it is embedded, and the hash that tells whether it changed. */
export interface DocumentText {
  docId: string;
  text: string;
  hash: string;
}

/** Ids per read of stored documents. */
const READ_IDS = 500;

/**
 * The documents of a site as the embedding work reads them, through the search plugin's services: its ids a page at
 * a time, its stored documents by id, and which fields are embedded.
 */
export class SiteDocuments {
  constructor(
    private readonly sites: () => SearchSites,
    private readonly service: () => SiteSearch,
    private readonly importer: () => SearchImporter,
  ) {}

  site(siteId: string): SearchSite | null {
    return this.sites().find(siteId);
  }

  /** The site's default title, description and text fields (held in memory by the search plugin). */
  defaults(site: SearchSite): SiteDefaultFields {
    const fields = this.sites().defaultFields(site.id);
    if (!fields) throw new Error(`site "${site.name}" is gone`);
    return fields;
  }

  /** How many documents the site has in the locale: a search of every document, no row read. */
  async count(site: SearchSite, locale: string): Promise<number> {
    const params = new URLSearchParams({ q: '*', rows: '0', _setlocale: locale });
    return (await this.service().search(site.name, params.toString())).queryContext.count;
  }

  /** Every document id of the site and locale, a page at a time. */
  ids(site: SearchSite, locale: string): AsyncIterable<string[]> {
    return this.importer().documentIds(site.name, locale);
  }

  async texts(
    site: SearchSite,
    locale: string,
    ids: readonly string[],
    settings: SemanticSettings,
  ): Promise<DocumentText[]> {
    const fields = embeddedFields(settings, this.defaults(site));
    const out: DocumentText[] = [];
    for (let i = 0; i < ids.length; i += READ_IDS) {
      const docs: StoredDocument[] = await this.service().documents(site.name, locale, ids.slice(i, i + READ_IDS));
      for (const doc of docs) {
        const text = documentText(doc, fields);
        out.push({ docId: doc.id, text, hash: textHash(text, settings) });
      }
    }
    return out;
  }
}
