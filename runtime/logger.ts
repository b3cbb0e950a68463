import { type LevelWithSilent, type Logger, pino } from 'pino';
import { excerpt } from './errors.js';

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Where JSON lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
const redactPaths = [
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.key',
  'headers.authorization',
  'headers.cookie',
  'headers.key',
];

/** Longest text of a logged error member: a database error quotes its whole statement, values included. */
const ERROR_TEXT_MAX = 2000;

/**
 * pino's error serializer with every text member bounded: a failed statement with a 1 MB value logs an
 * excerpt of its shape, not the megabyte (nor every value that came with it).
 */
function boundedError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  for (const [key, value] of Object.entries(serialized)) {
    if (typeof value === 'string') serialized[key] = excerpt(value, ERROR_TEXT_MAX);
    else if (Array.isArray(value) && key === 'bindings') serialized[key] = `[${value.length} values]`;
  }
  return serialized;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { app: 'vela' },
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: boundedError },
    },
    (options.destination ?? pino.destination({ dest: 1, sync: true })) as pino.DestinationStream,
  );
}
