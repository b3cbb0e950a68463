import type { ApiRouter, Request } from 'vela/plugin';
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
  const collection = {
    path: '/api/sn/:snSiteId/field',
    params: fieldParams,
    description: 'the field',
    schema: fieldSchema,
  };
  const siteOf = (req: Request) => String(req.params.snSiteId);
  reads
    .collection(collection)
    .list(
      { summary: 'List the fields of a site', params: siteParam, description: 'fields' },
      (req) => sites.get(siteOf(req)).fields,
    )
    .read({ summary: 'Get a field' }, (id, req) => sites.field(siteOf(req), id));
  writes
    .collection(collection)
    .create({ summary: 'Create a field', params: siteParam, body: fieldCreateSchema }, (req) =>
      sites.createField(siteOf(req), req.body as Record<string, unknown>),
    )
    .replace(
      {
        summary:
          "Update a field (members left out keep their values); the site's index is rebuilt when what it indexes changes",
        body: fieldUpdateSchema,
      },
      (id, req) => sites.updateField(siteOf(req), id, req.body as Record<string, unknown>),
    )
    .remove(
      { summary: 'Delete a field (stored document attributes are kept)', description: 'the field is deleted' },
      async (id, req) => {
        const field = await sites.deleteField(siteOf(req), id);
        return { id: field.id, name: field.name };
      },
    );
}
