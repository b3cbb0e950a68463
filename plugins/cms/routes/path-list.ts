import type { ApiRouter } from 'vela/plugin';
import { cmsErrors } from '../errors.js';
import type { PathListRequest } from '../events/path-events.js';
import { sentSchema, sourceParam } from '../schemas/common.js';
import { PATH_LIST_DEFAULTS, pathListSchema } from '../schemas/path-list.js';
import { API, type CmsDomain, SCOPE } from './route-context.js';

/** A path list of 1,000 URLs of 2,000 characters, with room for the JSON around them. */
const PATH_LIST_LIMIT = '2200kb';

export function mountPathListRoute(router: ApiRouter, { store, events }: CmsDomain): void {
  router.post(
    `${API}/index/:source`,
    {
      access: 'key',
      scope: SCOPE,
      tags: ['cms'],
      summary: "Index or remove content by its paths: a content repository's publish-event webhook calls this",
      description:
        'Answers at once; the work goes on in the background as connector runs of the source (<name>-author, <name>-publish). ' +
        'A request repeating one accepted within 30 seconds (same source, event, recursive, attribute and set of paths) is answered sent and ignored.',
      params: sourceParam,
      body: pathListSchema,
      bodyLimit: PATH_LIST_LIMIT,
      responses: {
        200: { description: 'accepted (or ignored as a repeat)', schema: sentSchema },
        404: { description: 'no cms source of that name' },
      },
    },
    async (req, res) => {
      const name = String(req.params.source);
      const source = await store.findByName(name);
      if (!source) throw cmsErrors.sourceNotFound(name);
      await events.accept(source, withDefaults(req.body as PathListBody));
      res.json({ status: 'sent' });
    },
  );
}

type PathListBody = Pick<PathListRequest, 'paths'> & {
  [K in keyof typeof PATH_LIST_DEFAULTS]: PathListRequest[K] | null;
};

/** Members sent as null take their defaults, as left-out ones do (the schema fills those). */
function withDefaults(body: PathListBody): PathListRequest {
  return {
    paths: body.paths,
    event: body.event ?? PATH_LIST_DEFAULTS.event,
    recursive: body.recursive ?? PATH_LIST_DEFAULTS.recursive,
    attribute: body.attribute ?? PATH_LIST_DEFAULTS.attribute,
  };
}
