import type { ApiRouter } from 'vela/plugin';
import { idParam } from '../schemas/common.js';
import { mappingCreateBody, mappingSchema, mappingUpdateBody } from '../schemas/mapping.js';
import type { MappingInput } from '../store/mapping-store.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['mappings'];

export function mountMappingRoutes(router: ApiRouter, { mappings }: GatewayDomain): void {
  const admin = router.withDefaults({ access: 'admin', tags });
  const oneMapping = { description: 'the mapping', schema: mappingSchema };
  admin.list(
    '/api/v2/mapping',
    { summary: 'List the mappings', description: 'mappings by context', items: mappingSchema },
    () => mappings.list(),
  );
  admin.item(
    'post',
    '/api/v2/mapping',
    {
      summary: 'Register an upstream under /proxy/<mapping_name>/<sub_path>',
      body: mappingCreateBody,
      status: 201,
      ...oneMapping,
      responses: {
        400: { description: 'invalid context or url' },
        409: { description: 'a mapping has this context' },
      },
    },
    (req) => mappings.create(req.body as MappingInput),
  );
  admin.item('get', '/api/v2/mapping/:id', { summary: 'Get a mapping', params: idParam, ...oneMapping }, (req) =>
    mappings.get(String(req.params.id)),
  );
  admin.item(
    'put',
    '/api/v2/mapping/:id',
    {
      summary: 'Change a mapping (members left out keep their value)',
      params: idParam,
      body: mappingUpdateBody,
      ...oneMapping,
    },
    (req) => mappings.update(String(req.params.id), req.body as Partial<MappingInput>),
  );
  admin.remove(
    '/api/v2/mapping/:id',
    {
      summary: 'Delete a mapping (its response times and status go with it)',
      params: idParam,
      description: 'the mapping is deleted',
    },
    async (req) => ({ id: (await mappings.delete(String(req.params.id))).id }),
  );
}
