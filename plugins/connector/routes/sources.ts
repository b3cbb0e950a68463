import type { ApiRouter } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import { nameParam } from '../schemas/common.js';
import { sourceInputSchema, sourceSchema, sourceUpdateSchema } from '../schemas/source.js';
import { checkFetchTargets } from '../sources/fetch-targets.js';
import { checkSites } from '../sources/site-check.js';
import type { SourceInput } from '../sources/source-store.js';
import { API, type ConnectorDomain } from './route-context.js';

const tags = ['sources'];
const BASE = `${API}/source`;
const theSource = { description: 'the source', schema: sourceSchema };

export function mountSourceRoutes(
  router: ApiRouter,
  { sources, kinds, statuses, runs, coordinator, target, outbound, logger }: ConnectorDomain,
): void {
  const api = router.withDefaults({ access: 'key', scope: 'connector', tags });
  const source = api.collection({
    path: BASE,
    id: 'name',
    params: nameParam,
    ...theSource,
    responses: { 404: { description: 'no such source' } },
  });
  source.list({ summary: 'List the sources', description: 'sources' }, () => sources.list());

  api.item(
    'get',
    `${BASE}/structure`,
    { summary: 'An empty source, as a model for a new one', description: 'an empty source', schema: sourceSchema },
    () => ({ name: '', kind: 'jsonl', description: '', sites: [], locale: 'en_US', schedule: null, settings: {} }),
  );

  api.list(
    `${BASE}/kinds`,
    {
      summary: 'The kinds of source, with the JSON Schema of their settings',
      description: 'the kinds',
      items: {
        type: 'object',
        required: ['name', 'description', 'settingsSchema'],
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          settingsSchema: { type: 'object', description: "the JSON Schema a source's settings must match" },
          pluginOnly: { type: 'boolean', description: 'true: only a plugin can create sources of this kind' },
        },
      },
    },
    () => kinds.describe(),
  );

  source.read({ summary: 'Get a source' }, (name) => sources.get(name));

  source.create(
    {
      summary: "Create a source (settings are checked against its kind's schema)",
      body: sourceInputSchema,
      responses: { 409: { description: 'the name is taken' } },
    },
    async (req) => {
      const body = req.body as SourceInput;
      // The kind, the name and the settings first (cheap, and a taken name says so), then the sites.
      kinds.checkOffered(body.kind);
      if (sources.find(body.name)) throw connectorErrors.sourceExists(body.name);
      await checkFetchTargets(kinds.get(body.kind), kinds.checkSettings(body.kind, body.settings), outbound());
      await checkSites(target, body.sites, body.locale ?? 'en_US', logger);
      return sources.create(body);
    },
  );

  source.replace({ summary: 'Replace a source (its name stays)', body: sourceUpdateSchema }, async (name, req) => {
    const body = req.body as SourceInput;
    if (body.name !== undefined && body.name !== name) throw connectorErrors.nameMismatch(name, body.name);
    sources.checkWritable(sources.get(name));
    kinds.checkOffered(body.kind);
    await checkFetchTargets(kinds.get(body.kind), kinds.checkSettings(body.kind, body.settings), outbound());
    await checkSites(target, body.sites, body.locale ?? 'en_US', logger);
    return sources.update(name, { ...body, name });
  });

  source.delete(
    {
      summary: 'Delete a source with its status records and statistics (its documents stay in the search index)',
      description: 'true',
      schema: { type: 'boolean' },
      responses: { 409: { description: 'a run is going, or the source comes from the configuration file' } },
    },
    async (name) => {
      sources.checkWritable(sources.get(name));
      // Any run: one by ids would go on recording statuses of a source that is gone.
      if (coordinator.isBusy(name)) throw connectorErrors.sourceBusy(name);
      if (await coordinator.runsElsewhere(name)) throw connectorErrors.sourceRunningElsewhere(name);
      await sources.delete(name);
      await statuses.removeSource(name);
      await runs.removeSource(name);
      return true;
    },
  );
}
