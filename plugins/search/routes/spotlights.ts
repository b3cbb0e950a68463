import type { ApiRouter, Request } from 'vela/plugin';
import { searchErrors } from '../errors.js';
import { type SpotlightBody, spotlightInput, spotlightView } from '../spotlights/spotlight-input.js';
import {
  spotlightCreateSchema,
  spotlightParams,
  spotlightSchema,
  spotlightSiteParams,
  spotlightUpdateSchema,
} from '../spotlights/spotlight-schemas.js';
import type { Spotlight, SpotlightInput, SpotlightStore } from '../spotlights/spotlight-store.js';
import type { SiteStore } from '../store/site-store.js';

const tags = ['spotlights'];

/** Spotlight administration: `/api/sn/<site>/spotlight` (the site by id or name). */
export function mountSpotlightRoutes(
  router: ApiRouter,
  { sites, spotlights }: { sites: SiteStore; spotlights: SpotlightStore },
): void {
  const siteOf = (req: Request) => String(req.params.snSiteId);
  /** The spotlight of the request's site with this id, or the 404 that names both. */
  const found = (req: Request, id: string) => {
    const config = sites.get(siteOf(req));
    const spotlight = spotlights.find(config.site.id, id);
    if (!spotlight) throw searchErrors.spotlightNotFound(config.site.name, id);
    return spotlight;
  };
  const view = (spotlight: Spotlight) => spotlightView(spotlight, sites.get(spotlight.siteId));
  const reads = router.withDefaults({ access: 'key', scope: 'search', tags });
  const writes = router.withDefaults({ access: 'key', scope: 'admin', tags });
  const collection = {
    path: '/api/sn/:snSiteId/spotlight',
    params: spotlightParams,
    description: 'the spotlight',
    schema: spotlightSchema,
  };
  const spotlightsOf = reads.collection(collection);
  spotlightsOf.list(
    { summary: 'List the spotlights of a site', params: spotlightSiteParams, description: 'spotlights' },
    (req) => spotlights.list(sites.get(siteOf(req)).site.id).map(view),
  );
  reads.item(
    'get',
    '/api/sn/:snSiteId/spotlight/structure',
    {
      summary: 'An empty spotlight of the site, as a form starts from',
      params: spotlightSiteParams,
      description: 'an empty spotlight',
      schema: spotlightSchema,
    },
    (req) => {
      const { site } = sites.get(siteOf(req));
      const locale = site.defaultLocale ?? site.locales[0];
      return {
        name: '',
        description: '',
        locale,
        siteId: site.id,
        managed: true,
        provider: 'VELA',
        terms: [],
        documents: [],
        language: locale,
        turSNSiteSpotlightTerms: [],
        turSNSiteSpotlightDocuments: [],
        turSNSite: { id: site.id, name: site.name },
      };
    },
  );
  spotlightsOf.read({ summary: 'Get a spotlight' }, (id, req) => view(found(req, id)));
  writes
    .collection(collection)
    .create(
      { summary: 'Create a spotlight', params: spotlightSiteParams, body: spotlightCreateSchema },
      async (req) => {
        const config = sites.get(siteOf(req));
        const body = spotlightInput(req.body as SpotlightBody, config) as SpotlightInput & {
          name: string;
          locale: string;
        };
        return view(await spotlights.create(config.site.id, body));
      },
    )
    .replace(
      {
        summary: 'Update a spotlight (terms and documents, when given, replace the lists whole)',
        body: spotlightUpdateSchema,
      },
      async (id, req) => {
        const spotlight = found(req, id);
        const input = spotlightInput(req.body as SpotlightBody, sites.get(spotlight.siteId), spotlight);
        const updated = await spotlights.update(spotlight.siteId, spotlight.id, input);
        return updated && view(updated);
      },
    )
    .remove({ summary: 'Delete a spotlight', description: 'the spotlight is deleted' }, async (id, req) => {
      const spotlight = found(req, id);
      await spotlights.delete(spotlight.siteId, spotlight.id);
      return { id: spotlight.id, name: spotlight.name };
    });
}
