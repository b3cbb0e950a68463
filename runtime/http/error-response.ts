import { excerpt, isVelaError } from '../errors.js';

export interface ErrorBody {
  error: string;
  message: string;
}

interface BodyParserError {
  limit?: number;
  message: string;
  /** The text that failed to parse. */
  body?: string;
}

/** The strict parser refuses JSON whose top level is not an object or array (`null`, `"x"`) as if it did not parse. */
function isJson(text: string | undefined): boolean {
  // A body opening with { or [ failed on its syntax: no need to parse it again.
  if (typeof text !== 'string' || /^\s*[{[]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const bodyParserErrors: Record<string, { code: string; message: (err: BodyParserError) => string }> = {
  'entity.too.large': {
    code: 'payload_too_large',
    message: (e) => `request body is larger than the limit of ${e.limit ?? '?'} bytes`,
  },
  'entity.parse.failed': {
    code: 'invalid_json',
    message: (e) =>
      isJson(e.body)
        ? `request body must be a JSON object or array, got ${excerpt(e.body!.trim(), 100)}`
        : `request body is not valid JSON: ${e.message}`,
  },
  'encoding.unsupported': { code: 'unsupported_media_type', message: (e) => e.message },
  'charset.unsupported': { code: 'unsupported_media_type', message: (e) => e.message },
  'request.aborted': { code: 'request_aborted', message: () => 'the client aborted the request' },
  'request.size.invalid': { code: 'bad_request', message: () => 'request size did not match Content-Length' },
  'parameters.too.many': { code: 'bad_request', message: () => 'too many parameters in the request body' },
};

const statusCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/**
 * Map anything thrown in a handler to the one error shape. 4xx errors keep their message (cut to an
 * excerpt: it may quote what the client sent); anything else becomes a 500 with a generic message, and
 * the cause goes to the log only.
 */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ErrorBody;
  internal: boolean;
  /** A refusal under load (see isRefusalUnderLoad): no failure of the server. */
  busy?: boolean;
  headers?: Record<string, string>;
} {
  if (isVelaError(error)) {
    const busy = isRefusalUnderLoad(error.status, error.headers);
    return {
      status: error.status,
      body: { error: error.code, message: excerpt(error.message) },
      internal: error.status >= 500 && !busy,
      busy,
      headers: error.headers,
    };
  }
  const e = error as {
    type?: string;
    status?: number;
    statusCode?: number;
    message?: string;
    limit?: number;
    expose?: boolean;
  };
  const status = e?.status ?? e?.statusCode;
  if (e?.type && bodyParserErrors[e.type] && typeof status === 'number' && status < 500) {
    const known = bodyParserErrors[e.type]!;
    return {
      status,
      body: { error: known.code, message: excerpt(known.message(e as BodyParserError)) },
      internal: false,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: {
        error: 'service_unavailable',
        message: 'the database (or another backing service) cannot be reached right now; retry shortly',
      },
      internal: false,
      headers: { 'Retry-After': '2' },
    };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      body: {
        error: statusCodes[status] ?? 'bad_request',
        message: e.expose !== false && e.message ? excerpt(e.message) : 'the request was refused',
      },
      internal: false,
    };
  }
  return {
    status: 500,
    body: { error: 'internal_error', message: 'the server failed to answer this request; the cause is in its log' },
    internal: true,
  };
}

/**
 * A 429 or 503 with Retry-After: a full queue, an instance at its concurrency, too many attempts. The server
 * works as it should, and any client can cause as many as it likes, so they are logged at info, rate-limited.
 */
export function isRefusalUnderLoad(status: number, headers: Record<string, string> | undefined): boolean {
  return (status === 429 || status === 503) && headers?.['Retry-After'] !== undefined;
}

// Connection-level failures: the network (Node), PostgreSQL's connection exception class (08) and
// shutdown codes (57P01-57P03), SQLite's busy and locked answers (another process holds the write lock).
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /Client has encountered a connection error/,
  /^Knex: Timeout acquiring a connection/,
  /timeout exceeded when trying to connect/i,
];

/** Whether an error means the database could not be reached (a 503 to retry, not a failure of the server). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'KnexTimeoutError') return true;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message));
}
