import { type ApiRouter, deleteRoute, listRoute } from 'vela/plugin';
import {
  fieldCreateSchema,
  fieldParams,
  fieldSchema,
  fieldUpdateSchema,
  fieldSiteParams as siteParam,
} from '../schemas/field.js';
import type { SearchDomain } from './route-context.js';

const tags = ['fields'];

export function mountFieldRoutes(router: ApiRouter, { sites }: Pick<SearchDomain, 'sites'>): void {
  listRoute(
    router,
    '/api/sn/:snSiteId/field',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'List the fields of a site',
      params: siteParam,
      description: 'fields',
      items: fieldSchema,
    },
    (req) => sites.get(String(req.params.snSiteId)).fields,
  );
  router.get(
    '/api/sn/:snSiteId/field/:id',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Get a field',
      params: fieldParams,
      responses: { 200: { description: 'the field', schema: fieldSchema } },
    },
    (req, res) => {
      res.json(sites.field(String(req.params.snSiteId), String(req.params.id)));
    },
  );
  router.post(
    '/api/sn/:snSiteId/field',
    {
      access: 'key',
      tags,
      summary: 'Create a field',
      params: siteParam,
      body: fieldCreateSchema,
      responses: { 201: { description: 'the field', schema: fieldSchema } },
    },
    async (req, res) => {
      res.status(201).json(await sites.createField(String(req.params.snSiteId), req.body as Record<string, unknown>));
    },
  );
  router.put(
    '/api/sn/:snSiteId/field/:id',
    {
      access: 'key',
      tags,
      summary:
        "Update a field (members left out keep their values); the site's index is rebuilt when what it indexes changes",
      params: fieldParams,
      body: fieldUpdateSchema,
      responses: { 200: { description: 'the field', schema: fieldSchema } },
    },
    async (req, res) => {
      res.json(
        await sites.updateField(
          String(req.params.snSiteId),
          String(req.params.id),
          req.body as Record<string, unknown>,
        ),
      );
    },
  );
  deleteRoute(
    router,
    '/api/sn/:snSiteId/field/:id',
    {
      access: 'key',
      tags,
      summary: 'Delete a field (stored document attributes are kept)',
      params: fieldParams,
      description: 'the field is deleted',
    },
    async (req) => {
      const field = await sites.deleteField(String(req.params.snSiteId), String(req.params.id));
      return { id: field.id, name: field.name };
    },
  );
}
