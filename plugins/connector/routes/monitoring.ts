import type { ApiRouter } from 'vela/plugin';
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

  const api = router.withDefaults({ access: 'key', scope: 'connector', tags });
  const monitoringData = { description: 'monitoring data', schema: monitoringSchema };

  api.list(
    `${BASE}/index/:source`,
    {
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

  api.item(
    'get',
    `${BASE}/indexing`,
    { summary: 'Sources with records, and the newest 50 records of all sources', ...monitoringData },
    async () => ({ sources: await statuses.sources(), indexing: await statuses.latest(undefined, LATEST) }),
  );

  api.item(
    'post',
    `${BASE}/indexing/_search`,
    {
      summary: 'Search the status records: filter by source and status, page from 0',
      body: monitoringSearchSchema,
      description: 'one page of records, newest change first, with the total',
      schema: monitoringPageSchema,
    },
    async (req) => {
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
      return {
        sources: await statuses.sources(),
        content,
        page: body.page,
        size: body.size,
        totalElements: total,
        totalPages: Math.ceil(total / body.size),
      };
    },
  );

  const newestRuns = { description: 'runs, newest first', items: runStatsSchema } as const;
  api.list(
    `${BASE}/indexing/stats`,
    {
      ...newestRuns,
      summary: 'Statistics of the newest 50 runs of all sources (404 when none ran)',
      responses: { 404: { description: 'no run yet' } },
    },
    async () => nonEmpty(await runs.list(undefined, LATEST), () => connectorErrors.noStats()),
  );

  api.list(
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

  api.item(
    'get',
    `${BASE}/indexing/:source`,
    {
      summary: 'The newest 50 records of a source',
      params: sourceParam,
      ...monitoringData,
      responses: { 404: { description: 'no such source' } },
    },
    async (req) => {
      const source = String(req.params.source);
      await knownSource(source);
      return { sources: [source], indexing: await statuses.latest(source, LATEST) };
    },
  );

  api.item(
    'post',
    `${BASE}/indexing`,
    {
      summary: 'The records of these content ids (of every source)',
      body: idListSchema,
      bodyLimit: '50mb',
      ...monitoringData,
    },
    async (req) => {
      const records = await statuses.byObjectIds([...new Set(req.body as string[])]);
      return { sources: [...new Set(records.map((r) => r.source))].sort(), indexing: records };
    },
  );
}
