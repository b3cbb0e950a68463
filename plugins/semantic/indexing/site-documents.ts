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

  /** The site's default fields and how many documents it has, as every search answer states them. */
  async overview(site: SearchSite, locale: string): Promise<{ defaults: SiteDefaultFields; documents: number }> {
    const params = new URLSearchParams({ q: '*', rows: '0', _setlocale: locale });
    const { queryContext } = await this.service().search(site.name, params.toString());
    return { defaults: queryContext.defaultFields, documents: queryContext.count };
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
    defaults: SiteDefaultFields,
  ): Promise<DocumentText[]> {
    const fields = embeddedFields(settings, defaults);
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
