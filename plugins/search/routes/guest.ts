import { type ApiRouter, pathParams, recordSchema, siteRefSchema } from 'vela/plugin';
import { linkBaseFromUrl } from '../links/query-string.js';
import type { Site } from '../store/site-types.js';
import { queryStringSearch, type SearchRouteDomain, searchByQueryString } from './search.js';

const tags = ['guest'];
export const GUEST_PREFIX = '/api/v2/guest/sn';

const guestSiteSchema = recordSchema({
  name: 'string',
  description: 'string',
  locales: {
    type: 'array',
    items: recordSchema({
      locale: 'string',
      link: { type: 'string', description: 'the match-all guest search in that locale' },
    }),
  },
});

/**
 * Guest access (`/api/v2/guest/**`, public, read only): what a public search page needs without a
 * token. The reference lists the prefix as public and serves nothing under it, so Vela defines it: the
 * sites with their locales, one site, and the search of a site (the same search as /api/sn/<site>/search,
 * its links built on the guest path). Nothing else of a site's configuration is shown.
 */
export function mountGuestRoutes(router: ApiRouter, domain: SearchRouteDomain): void {
  const { sites, search } = domain;
  const guestSite = (site: Site) => ({
    name: site.name,
    description: site.description,
    locales: search.localeLinks(
      sites.get(site.id),
      linkBaseFromUrl(`${GUEST_PREFIX}/${encodeURIComponent(site.name)}/search?q=*`),
    ),
  });

  const guest = router.withDefaults({ access: 'public', tags });
  const siteParams = pathParams({ siteName: siteRefSchema });
  guest.list(
    GUEST_PREFIX,
    { summary: 'Every site, by name, with its locales (guest access)', description: 'sites', items: guestSiteSchema },
    () => sites.list().map(guestSite),
  );

  guest.item(
    'get',
    `${GUEST_PREFIX}/:siteName`,
    {
      summary: 'One site, with its locales (guest access)',
      params: siteParams,
      description: 'the site',
      schema: guestSiteSchema,
    },
    (req) => guestSite(sites.get(String(req.params.siteName)).site),
  );

  guest.get(
    `${GUEST_PREFIX}/:siteName/search`,
    {
      summary: 'Search a site (guest access): the same parameters and answer as GET /api/sn/{siteName}/search',
      params: siteParams,
      ...queryStringSearch,
      description:
        'Query parameters are read from the raw query string (repeatable fq[]); links in the answer stay under /api/v2/guest/sn.',
    },
    searchByQueryString(domain),
  );
}
