/**
 * Coded errors of the runtime (after Fastify's FST_ERR_*): one place lists every code the host can
 * raise, with the HTTP status a client sees when the error crosses an HTTP boundary.
 */
export class VelaError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  /** Response headers that go with the error over HTTP (Retry-After of a 429 or 503). */
  headers?: Record<string, string>;

  constructor(code: string, message: string, status = 500, details?: unknown) {
    super(message);
    this.name = 'VelaError';
    this.code = code;
    this.status = status;
    this.details = details;
  }

  withHeaders(headers: Record<string, string>): this {
    this.headers = { ...this.headers, ...headers };
    return this;
  }
}

/**
 * A text cut to `max` characters, saying how much was left out: what error answers and log lines carry of
 * input a client sent, so a 60 KB value is not echoed back (or logged) whole.
 */
export function excerpt(text: string, max = 1000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

type ErrorFactory<A extends unknown[]> = (...args: A) => VelaError;

function coded<A extends unknown[]>(code: string, status: number, message: (...args: A) => string): ErrorFactory<A> {
  return (...args: A) => new VelaError(code, message(...args), status);
}

/** Errors a plugin or route can answer with over HTTP: `{"error": code, "message": ...}`. */
export const httpErrors = {
  badRequest: coded('bad_request', 400, (message: string) => message),
  validation: coded('validation_failed', 400, (message: string) => message),
  /** A parameter the request must give and did not: `hint` says what to give. */
  missingParameter: coded('missing_parameter', 400, (name: string, hint: string) => `${name} is required: ${hint}`),
  /** A parameter given with a value the route cannot take: `message` says why, after the name. */
  invalidParameter: coded('invalid_parameter', 400, (name: string, message: string) => `${name} ${message}`),
  unauthorized: coded('unauthorized', 401, (message: string) => message),
  forbidden: coded('forbidden', 403, (message: string) => message),
  csrf: coded(
    'csrf_token_invalid',
    403,
    () => 'a write signed in with the session cookie needs the X-CSRF-Token header from GET /api/login',
  ),
  notFound: coded('not_found', 404, (message: string) => message),
  conflict: coded('conflict', 409, (message: string) => message),
  payloadTooLarge: coded(
    'payload_too_large',
    413,
    (limit: string) => `request body is larger than the limit of ${limit}`,
  ),
  unsupportedMediaType: coded('unsupported_media_type', 415, (message: string) => message),
  internal: coded('internal_error', 500, () => 'the server failed to answer this request; the cause is in its log'),
  unavailable: coded('service_unavailable', 503, (message: string) => message),
  tooManyRequests: (message: string, retryAfterSeconds: number) =>
    new VelaError('too_many_requests', message, 429).withHeaders({ 'Retry-After': String(retryAfterSeconds) }),
} as const;

/** Errors that stop the runtime from starting; `message` is the one line an operator sees. */
export const bootErrors = {
  manifestInvalid: coded('E_MANIFEST_INVALID', 500, (file: string, problem: string) => `${file}: ${problem}`),
  pluginDuplicate: coded(
    'E_PLUGIN_DUPLICATE',
    500,
    (name: string, a: string, b: string) => `plugin "${name}" is found twice on the loader path: ${a} and ${b}`,
  ),
  pluginMissing: coded(
    'E_PLUGIN_MISSING',
    500,
    (name: string, neededBy: string) => `plugin "${neededBy}" depends on "${name}", which is not on the loader path`,
  ),
  pluginNotFound: coded(
    'E_PLUGIN_NOT_FOUND',
    500,
    (name: string, paths: string) =>
      `plugin "${name}" was asked for with --plugins but is not on the loader path (${paths})`,
  ),
  dependencyCycle: coded(
    'E_DEPENDENCY_CYCLE',
    500,
    (cycle: string[]) => `plugin dependency cycle: ${cycle.join(' -> ')}`,
  ),
  runtimeIncompatible: coded(
    'E_RUNTIME_INCOMPATIBLE',
    500,
    (file: string, range: string, version: string) =>
      `${file}: plugin needs runtime ${range}, this runtime is ${version}`,
  ),
  consumesMismatch: coded(
    'E_CONSUMES_MISMATCH',
    500,
    (file: string, manifest: readonly string[], code: readonly string[]) =>
      `${file}: "consumes" is [${manifest.join(', ')}] in plugin.json but [${code.join(', ')}] in the plugin's definition; list the same services in both`,
  ),
  pluginEntry: coded('E_PLUGIN_ENTRY', 500, (file: string, problem: string) => `${file}: ${problem}`),
  configInvalid: coded(
    'E_CONFIG_INVALID',
    500,
    (where: string, problems: string[]) => `invalid configuration (${where}): ${problems.join('; ')}`,
  ),
  configFile: coded('E_CONFIG_FILE', 500, (file: string, problem: string) => `${file}: ${problem}`),
  hookUndeclared: coded(
    'E_HOOK_UNDECLARED',
    500,
    (hook: string, tap: string) => `tap "${tap}" is on hook "${hook}", which no loaded plugin declares`,
  ),
  hookDeclaration: coded(
    'E_HOOK_DECLARATION',
    500,
    (owner: string, problem: string) => `plugin "${owner}": ${problem}`,
  ),
  serviceNotConsumed: coded(
    'E_SERVICE_NOT_CONSUMED',
    500,
    (plugin: string, service: string) =>
      `plugin "${plugin}" resolved service "${service}", which its manifest does not list in "consumes"`,
  ),
  serviceNotProvided: coded(
    'E_SERVICE_NOT_PROVIDED',
    500,
    (plugin: string, service: string) =>
      `plugin "${plugin}" consumes service "${service}", which neither the runtime nor any loaded plugin provides`,
  ),
  serviceUndeclared: coded(
    'E_SERVICE_UNDECLARED',
    500,
    (plugin: string, service: string) =>
      `plugin "${plugin}" provides service "${service}", which its manifest does not list in "provides"`,
  ),
  unknownService: coded(
    'E_UNKNOWN_SERVICE',
    500,
    (plugin: string, service: string, known: string[]) =>
      `plugin "${plugin}" mounts into service "${service}", which is not configured (known: ${known.join(', ')})`,
  ),
  portInUse: coded(
    'E_PORT_IN_USE',
    500,
    (service: string, host: string, port: number) =>
      `the ${service} service cannot listen on ${host}:${port}: the port is already in use`,
  ),
  listen: coded(
    'E_LISTEN',
    500,
    (service: string, port: number, problem: string) =>
      `the ${service} service cannot listen on port ${port}: ${problem}`,
  ),
  migration: coded(
    'E_MIGRATION',
    500,
    (owner: string, problem: string) => `migrations of "${owner}" failed: ${problem}`,
  ),
  tablePrefix: coded(
    'E_TABLE_PREFIX',
    500,
    (owner: string, tables: string[], prefix: string) =>
      `migrations of "${owner}" created ${tables.join(', ')}; its tables must start with "${prefix}"`,
  ),
  phaseTimeout: coded(
    'E_PHASE_TIMEOUT',
    500,
    (plugin: string, phase: string, ms: number) => `plugin "${plugin}" did not finish ${phase} within ${ms} ms`,
  ),
  routeAccess: coded(
    'E_ROUTE_ACCESS',
    500,
    (plugin: string, method: string, path: string, got: unknown) =>
      `plugin "${plugin}" mounts ${method} ${path} without its access: the route spec needs access 'public', 'key' or 'admin', got ${JSON.stringify(got) ?? 'nothing'}`,
  ),
  cronInvalid: coded(
    'E_CRON_INVALID',
    500,
    (job: string, expression: string) => `scheduled job "${job}" has an invalid cron expression "${expression}"`,
  ),
} as const;

export function isVelaError(error: unknown): error is VelaError {
  return error instanceof VelaError;
}
