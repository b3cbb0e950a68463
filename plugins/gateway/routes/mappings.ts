import type { ApiRouter } from 'vela/plugin';
import { idParam } from '../schemas/common.js';
import { mappingCreateBody, mappingSchema, mappingUpdateBody } from '../schemas/mapping.js';
import type { MappingInput } from '../store/mapping-store.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['mappings'];

export function mountMappingRoutes(router: ApiRouter, { mappings }: GatewayDomain): void {
  router
    .withDefaults({ access: 'admin', tags })
    .collection({ path: '/api/v2/mapping', params: idParam, description: 'the mapping', schema: mappingSchema })
    .list({ summary: 'List the mappings', description: 'mappings by context' }, () => mappings.list())
    .create(
      {
        summary: 'Register an upstream under /proxy/<mapping_name>/<sub_path>',
        body: mappingCreateBody,
        responses: {
          400: { description: 'invalid context or url' },
          409: { description: 'a mapping has this context' },
        },
      },
      (req) => mappings.create(req.body as MappingInput),
    )
    .read({ summary: 'Get a mapping' }, (id) => mappings.get(id))
    .replace({ summary: 'Change a mapping (members left out keep their value)', body: mappingUpdateBody }, (id, req) =>
      mappings.update(id, req.body as Partial<MappingInput>),
    )
    .remove(
      { summary: 'Delete a mapping (its response times and status go with it)', description: 'the mapping is deleted' },
      async (id) => ({ id: (await mappings.delete(id)).id }),
    );
}
