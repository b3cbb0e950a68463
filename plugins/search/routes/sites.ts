import { type ApiRouter, answers, httpErrors, type Response } from 'vela/plugin';
import type { SearchHooks } from '../api.js';
import { exportSites, importSites } from '../exchange/site-exchange.js';
import {
  configExportSchema,
  fromOriginalForm,
  siteParams as idParam,
  importConfigProblems,
  importConfigResultSchema,
  importConfigSchema,
  localeBodySchema,
  siteCreateBodySchema,
  siteLocaleParams,
  siteSchema,
  siteUpdateBodySchema,
} from '../schemas/site.js';
import type { SearchDomain } from './route-context.js';

const tags = ['sites'];

export function mountSiteRoutes(
  router: ApiRouter,
  {
    sites,
    indexes,
    docs,
    spotlights,
    hooks,
  }: Pick<SearchDomain, 'sites' | 'indexes' | 'docs' | 'spotlights'> & {
    hooks: Pick<SearchHooks, 'monitoring' | 'siteExport' | 'siteImport'>;
  },
): void {
  const { monitoring } = hooks;
  const exchange = { sites, spotlights, hooks };
  // Reading takes a key with the search scope; changing a site, an admin one.
  const reads = router.withDefaults({ access: 'key', scope: 'search', tags });
  const writes = router.withDefaults({ access: 'key', tags });
  const theSite = { description: 'the site', schema: siteSchema };
  const collection = { path: '/api/sn', params: idParam, ...theSite };
  const anExport = answers('the export file (as an attachment)', configExportSchema);

  const readSites = reads.collection(collection);
  const writeSites = writes.collection(collection);
  readSites.list({ summary: 'List sites', description: 'sites' }, () => sites.list());

  writeSites.create(
    {
      summary:
        'Create a site (with the template fields unless `fields` is given, and locale en_US unless `locales` is given)',
      body: siteCreateBodySchema,
      description: 'the created site',
    },
    (req) => sites.create(fromOriginalForm(req.body as Record<string, unknown>)),
  );

  reads.get(
    '/api/sn/export',
    {
      summary: 'Export every site configuration (settings, locales, fields, spotlights, the plugins’ site settings)',
      responses: anExport,
    },
    async (_req, res) => {
      const file = await exportSites(
        exchange,
        sites.list().map((s) => s.id),
      );
      attachment(res, `sn-sites-all_${today()}.json`);
      res.json(file);
    },
  );

  writes.item(
    'post',
    '/api/sn/import-config',
    {
      summary: 'Restore site configurations from an export: sites are matched by name, created or replaced',
      body: importConfigSchema,
      description: 'what was done with each site',
      schema: importConfigResultSchema,
    },
    async (req) => {
      const entries = (req.body as { sites: Array<Record<string, unknown>> }).sites;
      const problems = importConfigProblems(entries);
      if (problems.length > 0) throw httpErrors.validation(problems.join('; '));
      return importSites(exchange, entries);
    },
  );

  readSites.read({ summary: 'Get a site' }, (id) => sites.get(id).site);
  writeSites
    .replace({ summary: 'Update a site (members left out keep their values)', body: siteUpdateBodySchema }, (id, req) =>
      sites.update(id, fromOriginalForm(req.body as Record<string, unknown>)),
    )
    .remove({ summary: 'Delete a site, its indexes and documents', description: 'the site is deleted' }, async (id) => {
      const site = await sites.delete(id);
      return { id: site.id, name: site.name };
    });

  reads.item(
    'get',
    '/api/sn/:id/monitoring',
    {
      summary: 'Document count and indexing queue size, in all and per locale',
      params: idParam,
      description: 'monitoring',
      schema: {
        type: 'object',
        description: 'plugins add members of their own (the semantic plugin: semantic, the embedding progress)',
        properties: { documents: { type: 'integer' }, queue: { type: 'integer' }, locales: { type: 'object' } },
      },
    },
    async (req) => {
      const { site } = sites.get(String(req.params.id));
      const queue = await indexes.queueSizes(site.id);
      const locales: Record<string, { documents: number; indexed: number; queue: number }> = {};
      for (const locale of site.locales) {
        locales[locale] = {
          documents: await docs.count(site.id, locale),
          indexed: indexes.engine(site.id, locale).size,
          queue: queue[locale] ?? 0,
        };
      }
      const sum = (key: 'documents' | 'queue') => Object.values(locales).reduce((n, l) => n + l[key], 0);
      const report: Record<string, unknown> = { documents: sum('documents'), queue: sum('queue'), locales };
      if (monitoring.isUsed()) await monitoring.promise({ siteId: site.id, report });
      return report;
    },
  );

  reads.get(
    '/api/sn/:id/export',
    { summary: 'Export one site configuration', params: idParam, responses: anExport },
    async (req, res) => {
      const { site } = sites.get(String(req.params.id));
      const file = await exportSites(exchange, [site.id]);
      attachment(res, `sn-site-${site.name.replace(/[^\w.-]/g, '_')}_${today()}.json`);
      res.json(file);
    },
  );

  reads.list(
    '/api/sn/:id/locale',
    {
      summary: 'List the locales of a site',
      params: idParam,
      description: 'the locales',
      items: { type: 'object', required: ['locale'], properties: { locale: { type: 'string' } } },
    },
    (req) => sites.get(String(req.params.id)).site.locales.map((locale) => ({ locale })),
  );

  writes.item(
    'post',
    '/api/sn/:id/locale',
    { summary: 'Add a locale to a site', params: idParam, body: localeBodySchema, ...theSite, status: 201 },
    (req) => sites.addLocale(String(req.params.id), (req.body as { locale: string }).locale),
  );

  writes.item(
    'delete',
    '/api/sn/:id/locale/:locale',
    { summary: 'Remove a locale (and its documents) from a site', params: siteLocaleParams, ...theSite },
    (req) => sites.removeLocale(String(req.params.id), String(req.params.locale)),
  );
}

/** Today's date, as export file names carry it. */
const today = () => new Date().toISOString().slice(0, 10);

function attachment(res: Response, filename: string): void {
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
}
