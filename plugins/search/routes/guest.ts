import { type ApiRouter, type JsonSchema, listRoute, pathParams, siteRefSchema } from 'vela/plugin';
import { linkBaseFromUrl } from '../links/query-string.js';
import { parseSearchParams } from '../query/search-params.js';
import { searchResponseSchema } from '../schemas/search-response.js';
import type { Site } from '../store/site-types.js';
import { answerSearch, rawQuery, type SearchRouteDomain, searchQueryDoc } from './search.js';

const tags = ['guest'];
export const GUEST_PREFIX = '/api/v2/guest/sn';

const guestSiteSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    locales: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          locale: { type: 'string' },
          link: { type: 'string', description: 'the match-all guest search in that locale' },
        },
      },
    },
  },
};

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

  listRoute(
    router,
    GUEST_PREFIX,
    {
      access: 'public',
      tags,
      summary: 'Every site, by name, with its locales (guest access)',
      description: 'sites',
      items: guestSiteSchema,
    },
    () => sites.list().map(guestSite),
  );

  router.get(
    `${GUEST_PREFIX}/:siteName`,
    {
      access: 'public',
      tags,
      summary: 'One site, with its locales (guest access)',
      params: pathParams({ siteName: siteRefSchema }),
      responses: { 200: { description: 'the site', schema: guestSiteSchema } },
    },
    (req, res) => {
      res.json(guestSite(sites.get(String(req.params.siteName)).site));
    },
  );

  router.get(
    `${GUEST_PREFIX}/:siteName/search`,
    {
      access: 'public',
      tags,
      summary: 'Search a site (guest access): the same parameters and answer as GET /api/sn/{siteName}/search',
      params: pathParams({ siteName: siteRefSchema }),
      query: searchQueryDoc,
      validate: false,
      description:
        'Query parameters are read from the raw query string (repeatable fq[]); links in the answer stay under /api/v2/guest/sn.',
      responses: { 200: { description: 'the search response', schema: searchResponseSchema } },
    },
    (req, res) =>
      answerSearch(domain, req, res, `GET ${req.originalUrl}`, () =>
        parseSearchParams(req.path, rawQuery(req.originalUrl)),
      ),
  );
}
