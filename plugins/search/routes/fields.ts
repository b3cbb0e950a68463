import type { ApiRouter } from 'vela/plugin';
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
  // Reading takes a key with the search scope; changing a field, an admin one.
  const reads = router.withDefaults({ access: 'key', scope: 'search', tags });
  const writes = router.withDefaults({ access: 'key', tags });
  const theField = { description: 'the field', schema: fieldSchema };
  reads.list(
    '/api/sn/:snSiteId/field',
    { summary: 'List the fields of a site', params: siteParam, description: 'fields', items: fieldSchema },
    (req) => sites.get(String(req.params.snSiteId)).fields,
  );
  reads.item(
    'get',
    '/api/sn/:snSiteId/field/:id',
    { summary: 'Get a field', params: fieldParams, ...theField },
    (req) => sites.field(String(req.params.snSiteId), String(req.params.id)),
  );
  writes.item(
    'post',
    '/api/sn/:snSiteId/field',
    { summary: 'Create a field', params: siteParam, body: fieldCreateSchema, ...theField, status: 201 },
    (req) => sites.createField(String(req.params.snSiteId), req.body as Record<string, unknown>),
  );
  writes.item(
    'put',
    '/api/sn/:snSiteId/field/:id',
    {
      summary:
        "Update a field (members left out keep their values); the site's index is rebuilt when what it indexes changes",
      params: fieldParams,
      body: fieldUpdateSchema,
      ...theField,
    },
    (req) => sites.updateField(String(req.params.snSiteId), String(req.params.id), req.body as Record<string, unknown>),
  );
  writes.remove(
    '/api/sn/:snSiteId/field/:id',
    {
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
