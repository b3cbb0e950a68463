import type { SearchSites, SiteSearch } from '@vela/plugin-search/api';
import type { Logger } from 'vela/plugin';
import type { GraphqlLimits } from './operation/query-limits.js';

/** What the routes work with: the limits, the log, and the search plugin's services. */
export interface GraphqlDomain {
  limits: GraphqlLimits;
  logger: Logger;
  /** The search plugin's services (resolved on first use: they exist once the search plugin has registered). */
  sites: () => SearchSites;
  search: () => SiteSearch;
}
