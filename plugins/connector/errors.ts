import { VelaError } from 'vela/plugin';

/** Every error the connector answers with: code, status, message. */
export const connectorErrors = {
  sourceNotFound: (name: string) =>
    new VelaError('source_not_found', `no source named "${name}" (GET /api/v2/connector/source lists them)`, 404),
  sourceExists: (name: string) => new VelaError('source_exists', `a source named "${name}" already exists`, 409),
  sourceRunningElsewhere: (name: string) =>
    new VelaError(
      'source_running',
      `a run of source "${name}" is going in another process sharing this database; wait for it to end`,
      409,
    ),
  sourceReadOnly: (name: string) =>
    new VelaError('source_read_only', `source "${name}" is defined in the configuration file; change it there`, 409),
  sourceOfPlugin: (name: string, kind: string) =>
    new VelaError(
      'source_read_only',
      `source "${name}" belongs to the plugin that provides its kind (${kind}); change it through that plugin`,
      409,
    ),
  sourceBusy: (name: string) =>
    new VelaError(
      'source_running',
      `a run of source "${name}" is going or waiting; try again once it has ended (GET /api/v2/connector/monitoring/indexing/stats/${name})`,
      409,
    ),
  sourceRunning: (name: string) =>
    new VelaError(
      'source_running',
      `a full run of source "${name}" is already running; wait for it to end (GET /api/v2/connector/monitoring/indexing/stats/${name})`,
      409,
    ),
  unknownKind: (kind: string, known: string[]) =>
    new VelaError('invalid_parameter', `kind must be one of ${known.join(', ')}, got ${JSON.stringify(kind)}`, 400),
  invalidSettings: (kind: string, problems: string[]) =>
    new VelaError('invalid_parameter', `settings of a ${kind} source are invalid: ${problems.join('; ')}`, 400),
  invalidParameter: (name: string, message: string) => new VelaError('invalid_parameter', `${name} ${message}`, 400),
  nameMismatch: (path: string, body: unknown) =>
    new VelaError(
      'invalid_parameter',
      `name in the body (${JSON.stringify(body)}) must match the name in the path ("${path}")`,
      400,
    ),
  ruleNotFound: (id: string) => new VelaError('rule_not_found', `no indexing rule with id "${id}"`, 404),
  noStatusRecords: (source: string) =>
    new VelaError(
      'not_found',
      `no indexing status records for source "${source}" yet (run GET /api/v2/connector/index/${source}/all)`,
      404,
    ),
  noStats: (source?: string) =>
    new VelaError(
      'not_found',
      source ? `no indexing statistics for source "${source}" yet` : 'no indexing statistics yet: no source has run',
      404,
    ),
  unauthorized: (message: string) => new VelaError('unauthorized', message, 401),
  stopping: () =>
    new VelaError('service_unavailable', 'the connector is stopping; try again once it has restarted', 503),
  searchFailed: (message: string) =>
    new VelaError('search_unavailable', `${message}; try again once the search service answers`, 502),
  noSearchService: () =>
    new VelaError(
      'search_unavailable',
      'no search service: load the search plugin in this runtime or set plugins.connector.search.url',
      503,
    ),
} as const;
