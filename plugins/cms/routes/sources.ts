import { type ApiRouter, OutboundRefused } from 'vela/plugin';
import type { CmsSource } from '../api.js';
import { cmsErrors } from '../errors.js';
import { idParam, sentSchema } from '../schemas/common.js';
import { sourceInputSchema, sourceSchema, sourceStructureSchema, sourceUpdateSchema } from '../schemas/source.js';
import { type CmsSourceInput, checkSource, emptySource, environmentsOf } from '../sources/cms-source.js';
import { API, type CmsDomain, SCOPE } from './route-context.js';

const BASE = `${API}/source`;
const tags = ['cms sources'];
const theSource = { description: 'the source (never its password)', schema: sourceSchema };
const missing = { 404: { description: 'no such source' } };

export function mountSourceRoutes(router: ApiRouter, domain: CmsDomain): void {
  const { store, sync } = domain;

  const api = router.withDefaults({ access: 'key', scope: SCOPE, tags });
  const source = api.collection({ path: BASE, params: idParam, ...theSource, responses: missing });
  source.list({ summary: 'List the cms sources', description: 'sources' }, () => store.list());

  // Before /source/:id, which would take "structure" for an id.
  api.item(
    'get',
    `${BASE}/structure`,
    {
      summary: 'An empty source, as a model for a new one',
      description: 'an empty source',
      schema: sourceStructureSchema,
    },
    () => emptySource(),
  );

  source.read({ summary: 'Get a cms source' }, (id) => store.get(id));

  source.create(
    {
      summary: 'Create a cms source, with its connector sources (<name>-author, <name>-publish)',
      body: sourceInputSchema,
      description: 'the source',
      responses: { 409: { description: 'the name is taken' } },
    },
    async (req) => {
      const input = normalized(req.body as CmsSourceInput & { password: string });
      // The source's own problems first: they say more than the outbound guard's refusal of the same URL.
      const problems = checkSource(input);
      if (problems.length > 0) throw cmsErrors.invalid(problems);
      await checkEndpoint(domain, input);
      const source = await store.create(input);
      const created: string[] = [];
      try {
        await sync.save(source, created);
      } catch (error) {
        // The connector refused (a site it does not know, a taken name): what this request made goes, nothing else.
        await sync.removeNamed(created).catch(() => undefined);
        await store.delete(source.id);
        throw error;
      }
      return source;
    },
  );

  source.replace(
    {
      summary: 'Replace a cms source (its name stays; without a password the stored one stays)',
      body: sourceUpdateSchema,
      responses: { 400: { description: 'the body names another id, or is invalid' } },
    },
    async (id, req) => {
      const body = req.body as CmsSourceInput & { id?: string };
      if (body.id !== undefined && body.id !== '' && body.id !== id) throw cmsErrors.idMismatch(id, body.id);
      const existing = await store.get(id);
      if (body.name !== existing.name) throw cmsErrors.renamed(existing.name);
      const input = normalized(body);
      const problems = checkSource(input);
      if (problems.length > 0) throw cmsErrors.invalid(problems);
      // The stored password is for the host it was given for.
      const [from, to] = [new URL(existing.endpoint).origin, new URL(input.endpoint).origin];
      if (input.password === undefined && from !== to) throw cmsErrors.passwordForNewOrigin(from, to);
      await checkEndpoint(domain, input);
      // The connector first: it checks the sites, so a refused change leaves the stored source as it was.
      await sync.save({ ...existing, ...input, id });
      return store.update(id, input);
    },
  );

  source.delete(
    {
      summary: 'Delete a cms source and its connector sources (its documents stay in the search index)',
      description: 'true',
      schema: { type: 'boolean' },
      responses: { 409: { description: 'one of its runs is going' } },
    },
    async (id) => {
      const source = await store.get(id);
      await sync.remove(source);
      return store.delete(source.id);
    },
  );

  api.item(
    'get',
    `${BASE}/:id/indexAll`,
    {
      summary: 'Index the whole source, in the background: a full connector run per environment',
      params: idParam,
      description: 'the runs are queued',
      schema: sentSchema,
      responses: { ...missing, 409: { description: 'a full run is going' } },
    },
    async (req) => ({ status: 'sent', runIds: await indexAll(domain, await store.get(String(req.params.id))) }),
  );
}

async function indexAll(domain: CmsDomain, source: CmsSource): Promise<string[]> {
  const runIds: string[] = [];
  for (const { connectorSource } of environmentsOf(source))
    runIds.push((await domain.runs().trigger(connectorSource, 'INDEX_ALL', 'api')).runId);
  return runIds;
}

/** URLs without their trailing slash: paths are appended to them. */
function normalized<T extends CmsSourceInput>(input: T): T {
  return {
    ...input,
    endpoint: input.endpoint.replace(/\/+$/, ''),
    deliveryUrlPrefix: input.deliveryUrlPrefix?.replace(/\/+$/, '') ?? null,
  };
}

/** An endpoint at an internal address is refused now (400), not at every run, unless the operator allows it. */
async function checkEndpoint(domain: CmsDomain, input: CmsSourceInput): Promise<void> {
  try {
    await domain.outbound().check(input.endpoint);
  } catch (error) {
    if (error instanceof OutboundRefused)
      throw cmsErrors.invalidParameter(
        'body.endpoint',
        `is ${error.message}; an operator can allow the host in runtime.network.allowHosts`,
      );
    // A host that does not resolve here is left to the runs: the network may differ.
  }
}
