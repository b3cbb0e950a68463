import type { AccessControl } from '../auth/access-control.js';
import type { ApiTokens } from '../auth/api-tokens.js';
import type { IndexManager } from '../indexing/index-manager.js';
import type { SearchService } from '../search/search-service.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { Accounts, Logger } from '../../../runtime/index.js';

/** What the route files share: the plugin's domain objects, built once in index.ts. */
export interface SearchDomain {
  sites: SiteStore;
  docs: DocumentStore;
  indexes: IndexManager;
  search: SearchService;
  tokens: ApiTokens;
  access: AccessControl;
  accounts: Accounts;
  logger: Logger;
}
