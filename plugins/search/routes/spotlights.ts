import { type ApiRouter, httpErrors, type Request } from 'vela/plugin';
import { searchErrors } from '../errors.js';
import {
  spotlightCreateSchema,
  spotlightParams,
  spotlightSchema,
  spotlightSiteParams,
  spotlightUpdateSchema,
} from '../spotlights/spotlight-schemas.js';
import type { SpotlightInput, SpotlightStore } from '../spotlights/spotlight-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';

const tags = ['spotlights'];

type Body = Omit<SpotlightInput, 'terms'> & { terms?: Array<string | { name: string }> };

/** The members a client may set; terms may come as the original wrote them ({"name": ...}). */
function input(body: Body, config: SiteConfig, creating: boolean): SpotlightInput {
  const { site } = config;
  const locale = body.locale ?? (creating ? (site.defaultLocale ?? site.locales[0]!) : undefined);
  if (locale !== undefined && !site.locales.includes(locale))
    throw httpErrors.invalidParameter(
      'body.locale',
      `must be one of the locales of site "${site.name}" (${site.locales.join(', ')}), got "${locale}"`,
    );
  const out: SpotlightInput = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description;
  if (locale !== undefined) out.locale = locale;
  if (body.provider !== undefined) out.provider = body.provider;
  if (body.terms !== undefined) out.terms = body.terms.map((t) => (typeof t === 'string' ? t : t.name));
  if (body.documents !== undefined) out.documents = body.documents;
  return out;
}

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
    (req) => spotlights.list(sites.get(siteOf(req)).site.id),
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
      return {
        name: '',
        description: '',
        locale: site.defaultLocale ?? site.locales[0],
        siteId: site.id,
        managed: true,
        provider: 'VELA',
        terms: [],
        documents: [],
      };
    },
  );
  spotlightsOf.read({ summary: 'Get a spotlight' }, (id, req) => found(req, id));
  writes
    .collection(collection)
    .create({ summary: 'Create a spotlight', params: spotlightSiteParams, body: spotlightCreateSchema }, (req) => {
      const config = sites.get(siteOf(req));
      const body = input(req.body as Body, config, true) as SpotlightInput & { name: string; locale: string };
      return spotlights.create(config.site.id, body);
    })
    .replace(
      {
        summary: 'Update a spotlight (terms and documents, when given, replace the lists whole)',
        body: spotlightUpdateSchema,
      },
      (id, req) => {
        const spotlight = found(req, id);
        return spotlights.update(
          spotlight.siteId,
          spotlight.id,
          input(req.body as Body, sites.get(spotlight.siteId), false),
        );
      },
    )
    .remove({ summary: 'Delete a spotlight', description: 'the spotlight is deleted' }, async (id, req) => {
      const spotlight = found(req, id);
      await spotlights.delete(spotlight.siteId, spotlight.id);
      return { id: spotlight.id, name: spotlight.name };
    });
}
