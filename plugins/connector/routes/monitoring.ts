import { type ApiRouter, listRoute } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import {
  idListSchema,
  monitoringPageSchema,
  monitoringSchema,
  monitoringSearchSchema,
  runStatsSchema,
  sourceParam,
  statusRecordSchema,
} from '../schemas/common.js';
import { API, type ConnectorDomain } from './route-context.js';

const tags = ['monitoring'];
const BASE = `${API}/monitoring`;
const LATEST = 50;
// The lists of the newest records: a key with the connector scope.
const newest = { access: 'key', scope: 'connector', tags } as const;

/** A list of the newest records, or the 404 `refusal` when there is none. */
function nonEmpty<T>(list: T[], refusal: () => Error): T[] {
  if (list.length === 0) throw refusal();
  return list;
}

interface SearchBody {
  source?: string | null;
  status?: string | null;
  statuses?: string[];
  objectId?: string | null;
  locale?: string | null;
  site?: string | null;
  page: number;
  size: number;
}

export function mountMonitoringRoutes(router: ApiRouter, { statuses, runs, sources }: ConnectorDomain): void {
  /** A source the connector knows now, or one that has records from before it was deleted. */
  const knownSource = async (name: string) => {
    if (!sources.find(name) && !(await statuses.sources()).includes(name)) throw connectorErrors.sourceNotFound(name);
  };

  listRoute(
    router,
    `${BASE}/index/:source`,
    {
      ...newest,
      summary: 'The newest 50 status records of a source (404 when it has none)',
      params: sourceParam,
      description: 'status records, newest first',
      items: statusRecordSchema,
      responses: { 404: { description: 'no status records' } },
    },
    async (req) =>
      nonEmpty(await statuses.latest(String(req.params.source), LATEST), () =>
        connectorErrors.noStatusRecords(String(req.params.source)),
      ),
  );

  router.get(
    `${BASE}/indexing`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Sources with records, and the newest 50 records of all sources',
      responses: { 200: { description: 'monitoring data', schema: monitoringSchema } },
    },
    async (_req, res) => {
      res.json({ sources: await statuses.sources(), indexing: await statuses.latest(undefined, LATEST) });
    },
  );

  router.post(
    `${BASE}/indexing/_search`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Search the status records: filter by source and status, page from 0',
      body: monitoringSearchSchema,
      responses: {
        200: { description: 'one page of records, newest change first, with the total', schema: monitoringPageSchema },
      },
    },
    async (req, res) => {
      const body = req.body as SearchBody;
      const wanted = [...(body.statuses ?? []), ...(body.status ? [body.status] : [])];
      const { content, total } = await statuses.search(
        {
          source: body.source ?? undefined,
          statuses: wanted,
          objectId: body.objectId ?? undefined,
          locale: body.locale ?? undefined,
          site: body.site ?? undefined,
        },
        body.page,
        body.size,
      );
      res.json({
        sources: await statuses.sources(),
        content,
        page: body.page,
        size: body.size,
        totalElements: total,
        totalPages: Math.ceil(total / body.size),
      });
    },
  );

  const newestRuns = { ...newest, description: 'runs, newest first', items: runStatsSchema } as const;
  listRoute(
    router,
    `${BASE}/indexing/stats`,
    {
      ...newestRuns,
      summary: 'Statistics of the newest 50 runs of all sources (404 when none ran)',
      responses: { 404: { description: 'no run yet' } },
    },
    async () => nonEmpty(await runs.list(undefined, LATEST), () => connectorErrors.noStats()),
  );

  listRoute(
    router,
    `${BASE}/indexing/stats/:source`,
    {
      ...newestRuns,
      summary: 'Statistics of the newest 50 runs of a source (404 when it never ran)',
      params: sourceParam,
      responses: { 404: { description: 'no run of this source' } },
    },
    async (req) =>
      nonEmpty(await runs.list(String(req.params.source), LATEST), () =>
        connectorErrors.noStats(String(req.params.source)),
      ),
  );

  router.get(
    `${BASE}/indexing/:source`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'The newest 50 records of a source',
      params: sourceParam,
      responses: {
        200: { description: 'monitoring data', schema: monitoringSchema },
        404: { description: 'no such source' },
      },
    },
    async (req, res) => {
      const source = String(req.params.source);
      await knownSource(source);
      res.json({ sources: [source], indexing: await statuses.latest(source, LATEST) });
    },
  );

  router.post(
    `${BASE}/indexing`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'The records of these content ids (of every source)',
      body: idListSchema,
      bodyLimit: '50mb',
      responses: { 200: { description: 'monitoring data', schema: monitoringSchema } },
    },
    async (req, res) => {
      const records = await statuses.byObjectIds([...new Set(req.body as string[])]);
      res.json({ sources: [...new Set(records.map((r) => r.source))].sort(), indexing: records });
    },
  );
}
