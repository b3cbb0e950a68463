import type { ApiRouter, InGroup, ListSpec } from 'vela/plugin';
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

  /**
   * GET `path`: the newest records (or runs) of the path's source, or of all without one, as `newest` reads them;
   * a 404 said as `none` (the error `refusal` gives) when there is none.
   */
  const newestOrNone = (
    path: string,
    spec: Omit<InGroup<ListSpec>, 'responses'>,
    none: string,
    newest: (source: string | undefined) => Promise<unknown[]>,
    refusal: (source: string | undefined) => Error,
  ) =>
    api.list(path, { ...spec, responses: { 404: { description: none } } }, async (req) => {
      const source = req.params.source === undefined ? undefined : String(req.params.source);
      const found = await newest(source);
      if (found.length === 0) throw refusal(source);
      return found;
    });

  newestOrNone(
    `${BASE}/index/:source`,
    {
      summary: 'The newest 50 status records of a source (404 when it has none)',
      params: sourceParam,
      description: 'status records, newest first',
      items: statusRecordSchema,
    },
    'no status records',
    (source) => statuses.latest(source, LATEST),
    (source) => connectorErrors.noStatusRecords(String(source)),
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
  const runsOf = (source: string | undefined) => runs.list(source, LATEST);
  newestOrNone(
    `${BASE}/indexing/stats`,
    { ...newestRuns, summary: 'Statistics of the newest 50 runs of all sources (404 when none ran)' },
    'no run yet',
    runsOf,
    connectorErrors.noStats,
  );
  newestOrNone(
    `${BASE}/indexing/stats/:source`,
    {
      ...newestRuns,
      summary: 'Statistics of the newest 50 runs of a source (404 when it never ran)',
      params: sourceParam,
    },
    'no run of this source',
    runsOf,
    connectorErrors.noStats,
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
