import type { SiteSearch } from '../api.js';
import type { DocumentStore } from '../store/document-store.js';
import { MAX_ROWS, parseSearchParams } from './search-params.js';
import type { SearchService } from './search-service.js';

/**
 * The search service as other plugins use it (`search.service`): the REST GET's query string in, its JSON out; stored
 * documents by id.
 */
export function siteSearch(service: SearchService, docs: DocumentStore): SiteSearch {
  return {
    search: (site, queryString) =>
      service.search(site, parseSearchParams(`/api/sn/${encodeURIComponent(site)}/search`, queryString)),
    maxRows: MAX_ROWS,
    async documents(site, locale, ids) {
      const { site: found } = service.resolve(site, locale);
      const stored = await docs.get(found.id, locale, [...new Set(ids)]);
      return ids.flatMap((id) => {
        const fields = stored.get(id);
        return fields ? [{ id, fields }] : [];
      });
    },
  };
}
