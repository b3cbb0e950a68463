import type { SearchSites } from '../api.js';
import { resolveSite } from '../query/plan.js';
import type { SiteStore } from './site-store.js';
import { defaultFieldsOf } from './site-types.js';

/** The site store as other plugins see it (`search.sites`): sites by name, without their fields. */
export function siteDirectory(sites: SiteStore): SearchSites {
  return {
    find: (nameOrId) => sites.find(nameOrId)?.site ?? null,
    get: (nameOrId, locale = '') => resolveSite(sites, nameOrId, locale).site,
    list: () => sites.list(),
    defaultFields: (nameOrId) => {
      const config = sites.find(nameOrId);
      return config ? defaultFieldsOf(config.site) : null;
    },
    create: (definition) => sites.create(definition),
  };
}
