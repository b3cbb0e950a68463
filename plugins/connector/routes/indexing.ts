import express, { type Request, type RequestHandler } from 'express';
import { type ApiRouter, httpErrors, itemRoute, livenessRoute, recordSchema } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import type { RunOperation } from '../monitoring/run-store.js';
import { validateSource } from '../monitoring/validate-source.js';
import { idListSchema, MAX_OBJECT_ID, nameParam, runStatsSchema, sentSchema, sourceParam } from '../schemas/common.js';
import { SearchServiceError } from '../search-target/search-target.js';
import { API, type ConnectorDomain } from './route-context.js';

const tags = ['indexing'];
const idList = { type: 'array', items: { type: 'string' } };
// Room for the 100,000 ids idListSchema allows.
const ID_LIST_LIMIT = '50mb';
const MAX_IDS = idListSchema.maxItems as number;
const sent = {
  200: {
    description:
      'the run is queued and goes on in the background; with ?wait=true, the run has ended and `run` holds its statistics',
    schema: { ...sentSchema, properties: { ...sentSchema.properties, run: runStatsSchema } },
  },
  400: { description: 'a bad id list, or a `wait` other than true or false' },
  404: { description: 'no such source' },
  409: { description: 'a full run of the source is already running' },
};
const waitProperty = {
  wait: {
    type: 'boolean',
    default: false,
    description: 'answer once the run has ended (the runs before it included), with its statistics',
  },
};
const waitQuery = { type: 'object', properties: waitProperty };
// What every route that starts a run shares: a key with the connector scope, the source it runs, the answer.
const runRoute = { access: 'key', scope: 'connector', tags, params: nameParam, responses: sent } as const;

/** What a source's comparison with the search index answers: ids per "<site>/<locale>", and how many. */
const validationSchema = {
  type: 'object',
  required: ['source', 'missing', 'extra', 'counts'],
  properties: {
    source: { type: 'string' },
    missing: {
      type: 'object',
      additionalProperties: idList,
      description: '"<site>/<locale>" → ids indexed by the connector that the search index does not hold',
    },
    extra: {
      type: 'object',
      additionalProperties: idList,
      description: '"<site>/<locale>" → ids in the search index that no connector source tracks',
    },
    counts: recordSchema({ indexed: 'integer', inSearch: 'integer', missing: 'integer', extra: 'integer' }),
  },
};

/** `?wait=true`: validated on routes that validate their query, read here on those that read their body themselves. */
function waits(req: Request): boolean {
  const wait: unknown = req.query.wait;
  if (wait === undefined || wait === false || wait === 'false') return false;
  if (wait === true || wait === 'true') return true;
  throw httpErrors.validation(`query.wait must be of type boolean, got ${described(wait)}`);
}

/** The runtime's bound (MAX_BODY_DEPTH): a GET body is parsed here, past the runtime's check, so it is checked here. */
const MAX_BODY_DEPTH = 64;

/** Iterative, so measuring a hostile body cannot exhaust the stack. */
function nestsDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (!current || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const member of Object.values(current)) stack.push([member, depth + 1]);
  }
  return false;
}

const refuseDeepBody: RequestHandler = (req, _res, next) => {
  next(
    nestsDeeper(req.body, MAX_BODY_DEPTH)
      ? httpErrors.badRequest(`the request body nests deeper than ${MAX_BODY_DEPTH} levels`)
      : undefined,
  );
};

/** What a wrong body was, in a few words (never the whole of it: it may be huge). */
function described(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (value !== null && typeof value === 'object') return `an object of ${Object.keys(value).length} members`;
  return String(JSON.stringify(value)).slice(0, 80);
}

function checkId(id: unknown, where: string): string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_OBJECT_ID)
    throw connectorErrors.invalidParameter(
      where,
      `must be a content id (a string of 1 to ${MAX_OBJECT_ID} characters), got ${typeof id === 'string' ? `${id.length} characters` : described(id)}`,
    );
  return id;
}

/** Content ids from a JSON array body, or from ?id= (repeatable) when there is no body. */
function idsOf(req: Request): string[] {
  const body: unknown = req.body;
  const fromQuery = ([] as unknown[])
    .concat(req.query.id ?? [])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  const hasBody =
    body !== undefined &&
    !(typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!hasBody) {
    if (fromQuery.length > 0) return fromQuery.map((id, i) => checkId(id, `id[${i}]`));
    throw connectorErrors.invalidParameter(
      'body',
      'must be a JSON array of content ids, e.g. ["42","43"] (or give ?id=42)',
    );
  }
  if (!Array.isArray(body) || body.length === 0)
    throw connectorErrors.invalidParameter(
      'body',
      `must be a non-empty JSON array of content ids, got ${described(body)}`,
    );
  if (body.length > MAX_IDS)
    throw connectorErrors.invalidParameter(
      'body',
      `must hold at most ${MAX_IDS} content ids, got ${body.length}: send them in several requests`,
    );
  return [...new Set(body.map((id, i) => checkId(id, `body[${i}]`)))];
}

export function mountIndexingRoutes(router: ApiRouter, domain: ConnectorDomain): void {
  const { coordinator } = domain;
  const start = async (req: Request, operation: RunOperation, ids?: string[]) => {
    const wait = waits(req);
    domain.target();
    const ticket = await coordinator.trigger(String(req.params.name), operation, 'api', ids);
    return { status: 'sent' as const, runId: ticket.runId, ...(wait ? { run: await ticket.done } : {}) };
  };
  // GET with a body (as the spec has it for reindex by ids): parse it ourselves.
  const jsonBody = express.json({ limit: ID_LIST_LIMIT, type: () => true });

  // /status answers too, as an alias: a health check or client that knows only the bare path still reaches it.
  for (const path of [`${API}/status`, '/status'])
    livenessRoute(router, path, {
      tags: ['status'],
      summary:
        path === '/status'
          ? 'Liveness of the connector (the older path of /api/v2/connector/status)'
          : 'Liveness of the connector (no authentication)',
      answer: 'the connector answers',
    });

  const runs = router.withDefaults(runRoute);
  /** GET `path`: a run of the whole source, `operation`. */
  const wholeSource = (path: string, summary: string, operation: RunOperation) =>
    runs.get(path, { summary, query: waitQuery }, async (req, res) => {
      res.json(await start(req, operation));
    });
  /** `path` by `method`: a run of the documents whose ids the body (or ?id=) gives; `parsers` read a GET's body. */
  const byIds = (
    method: 'get' | 'post',
    path: string,
    summary: string,
    operation: RunOperation,
    ...parsers: RequestHandler[]
  ) =>
    runs[method](
      path,
      { summary, query: waitQuery, body: idListSchema, validate: false, bodyLimit: ID_LIST_LIMIT },
      ...parsers,
      async (req, res) => {
        res.json(await start(req, operation, idsOf(req)));
      },
    );

  wholeSource(
    `${API}/index/:name/all`,
    'Index every document of a source (new and changed ones are sent)',
    'INDEX_ALL',
  );
  byIds('post', `${API}/index/:name`, 'Index the documents with these ids', 'INDEX_IDS');
  runs.get(
    `${API}/index/:name`,
    {
      summary: 'Index one document: ?id=',
      query: { type: 'object', properties: { id: { type: 'string' }, ...waitProperty } },
      validate: false,
    },
    async (req, res) => {
      res.json(await start(req, 'INDEX_IDS', idsOf(req)));
    },
  );
  wholeSource(
    `${API}/reindex/:name/all`,
    "Delete the source's documents from the index, then index all of them again",
    'REINDEX_ALL',
  );
  for (const method of ['get', 'post'] as const)
    byIds(
      method,
      `${API}/reindex/:name`,
      'Delete and index again the documents with these ids (JSON array body, or ?id=)',
      'REINDEX_IDS',
      jsonBody,
      refuseDeepBody,
    );

  itemRoute(
    router,
    'get',
    `${API}/validate/:source`,
    {
      access: 'key',
      scope: 'connector',
      tags: ['monitoring'],
      summary: 'Compare a source with the search index: documents missing from the index, and extra ones',
      params: sourceParam,
      description: 'missing and extra ids per "<site>/<locale>"',
      schema: validationSchema,
      responses: {
        404: { description: 'no such source' },
        502: { description: 'the search service failed or did not answer' },
      },
    },
    async (req) => {
      const source = domain.sources.get(String(req.params.source));
      try {
        return await validateSource(source, domain.statuses, domain.target());
      } catch (error) {
        throw error instanceof SearchServiceError ? connectorErrors.searchFailed(error.message) : error;
      }
    },
  );
}
