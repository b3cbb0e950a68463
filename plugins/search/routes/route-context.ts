import type { ApiTokens } from '../auth/api-tokens.js';
import type { Importer } from '../indexing/importer.js';
import type { IndexManager } from '../indexing/index-manager.js';
import type { AnswerCache } from '../query/answer-cache.js';
import type { SearchService } from '../query/search-service.js';
import type { SpotlightStore } from '../spotlights/spotlight-store.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';

/** What the route files share: the plugin's domain objects, built once in index.ts. */
export interface SearchDomain {
  sites: SiteStore;
  docs: DocumentStore;
  indexes: IndexManager;
  search: SearchService;
  /** Whole answers of the REST searches, by request, kept until their site changes. */
  answers: AnswerCache;
  /** Spotlights: administered at /api/sn/<site>/spotlight, matched by every search. */
  spotlights: SpotlightStore;
  importer: Importer;
  tokens: ApiTokens;
}
