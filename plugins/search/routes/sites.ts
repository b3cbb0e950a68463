import { type ApiRouter, deleteRoute, httpErrors, listRoute } from 'vela/plugin';
import {
  configExportSchema,
  siteParams as idParam,
  importConfigProblems,
  importConfigResultSchema,
  importConfigSchema,
  localeBodySchema,
  siteCreateSchema,
  siteLocaleParams,
  siteSchema,
  siteUpdateSchema,
} from '../schemas/site.js';
import type { SearchDomain } from './route-context.js';

const tags = ['sites'];

export function exportOf({ sites }: Pick<SearchDomain, 'sites'>, siteIds: string[]) {
  return {
    version: 1,
    exportedAt: new Date().toISOString(),
    sites: siteIds.map((id) => {
      const { site, fields } = sites.get(id);
      return { ...site, fields: fields.map(({ siteId: _siteId, ...field }) => field) };
    }),
  };
}

export function mountSiteRoutes(
  router: ApiRouter,
  { sites, indexes, docs }: Pick<SearchDomain, 'sites' | 'indexes' | 'docs'>,
): void {
  listRoute(
    router,
    '/api/sn',
    { access: 'key', scope: 'search', tags, summary: 'List sites', description: 'sites', items: siteSchema },
    () => sites.list(),
  );

  router.post(
    '/api/sn',
    {
      access: 'key',
      tags,
      summary:
        'Create a site (with the template fields unless `fields` is given, and locale en_US unless `locales` is given)',
      body: siteCreateSchema,
      responses: { 201: { description: 'the created site', schema: siteSchema } },
    },
    async (req, res) => {
      res.status(201).json(await sites.create(req.body as Record<string, unknown>));
    },
  );

  router.get(
    '/api/sn/export',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Export every site configuration (sites, locales, fields)',
      responses: { 200: { description: 'the export file (as an attachment)', schema: configExportSchema } },
    },
    (_req, res) => {
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="sn-sites-all_${new Date().toISOString().slice(0, 10)}.json"`,
      );
      res.json(
        exportOf(
          { sites },
          sites.list().map((s) => s.id),
        ),
      );
    },
  );

  router.post(
    '/api/sn/import-config',
    {
      access: 'key',
      tags,
      summary: 'Restore site configurations from an export: sites are matched by name, created or replaced',
      body: importConfigSchema,
      responses: { 200: { description: 'what was done with each site', schema: importConfigResultSchema } },
    },
    async (req, res) => {
      const entries = (req.body as { sites: Array<Record<string, unknown>> }).sites;
      const problems = importConfigProblems(entries);
      if (problems.length > 0) throw httpErrors.validation(problems.join('; '));
      const restored = [];
      for (const entry of entries) {
        const { id: _id, createdAt: _c, updatedAt: _u, ...site } = entry;
        const fields = ((site.fields as Array<Record<string, unknown>> | undefined) ?? []).map(
          ({ id: _fid, siteId: _s, createdAt: _fc, updatedAt: _fu, ...f }) => f,
        );
        const { action } = await sites.restore({ ...site, fields });
        restored.push({ name: entry.name, action });
      }
      res.json({ restored });
    },
  );

  router.get(
    '/api/sn/:id',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Get a site',
      params: idParam,
      responses: { 200: { description: 'the site', schema: siteSchema } },
    },
    (req, res) => {
      res.json(sites.get(String(req.params.id)).site);
    },
  );

  router.put(
    '/api/sn/:id',
    {
      access: 'key',
      tags,
      summary: 'Update a site (members left out keep their values)',
      params: idParam,
      body: siteUpdateSchema,
      responses: { 200: { description: 'the site', schema: siteSchema } },
    },
    async (req, res) => {
      res.json(await sites.update(String(req.params.id), req.body as Record<string, unknown>));
    },
  );

  deleteRoute(
    router,
    '/api/sn/:id',
    {
      access: 'key',
      tags,
      summary: 'Delete a site, its indexes and documents',
      params: idParam,
      description: 'the site is deleted',
    },
    async (req) => {
      const site = await sites.delete(String(req.params.id));
      return { id: site.id, name: site.name };
    },
  );

  router.get(
    '/api/sn/:id/monitoring',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Document count and indexing queue size, in all and per locale',
      params: idParam,
      responses: {
        200: {
          description: 'monitoring',
          schema: {
            type: 'object',
            properties: { documents: { type: 'integer' }, queue: { type: 'integer' }, locales: { type: 'object' } },
          },
        },
      },
    },
    async (req, res) => {
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
      res.json({ documents: sum('documents'), queue: sum('queue'), locales });
    },
  );

  router.get(
    '/api/sn/:id/export',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Export one site configuration',
      params: idParam,
      responses: { 200: { description: 'the export file (as an attachment)', schema: configExportSchema } },
    },
    (req, res) => {
      const { site } = sites.get(String(req.params.id));
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="sn-site-${site.name.replace(/[^\w.-]/g, '_')}_${new Date().toISOString().slice(0, 10)}.json"`,
      );
      res.json(exportOf({ sites }, [site.id]));
    },
  );

  router.get(
    '/api/sn/:id/locale',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'List the locales of a site',
      params: idParam,
      responses: {
        200: {
          description: 'the locales',
          schema: {
            type: 'array',
            items: { type: 'object', required: ['locale'], properties: { locale: { type: 'string' } } },
          },
        },
      },
    },
    (req, res) => {
      const { site } = sites.get(String(req.params.id));
      res.json(site.locales.map((locale) => ({ locale })));
    },
  );

  router.post(
    '/api/sn/:id/locale',
    {
      access: 'key',
      tags,
      summary: 'Add a locale to a site',
      params: idParam,
      body: localeBodySchema,
      responses: { 201: { description: 'the site', schema: siteSchema } },
    },
    async (req, res) => {
      res.status(201).json(await sites.addLocale(String(req.params.id), (req.body as { locale: string }).locale));
    },
  );

  router.delete(
    '/api/sn/:id/locale/:locale',
    {
      access: 'key',
      tags,
      summary: 'Remove a locale (and its documents) from a site',
      params: siteLocaleParams,
      responses: { 200: { description: 'the site', schema: siteSchema } },
    },
    async (req, res) => {
      res.json(await sites.removeLocale(String(req.params.id), String(req.params.locale)));
    },
  );
}
