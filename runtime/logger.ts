import { type LevelWithSilent, type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { excerpt } from './errors.js';
import { maskUrlPasswords } from './secret-values.js';

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Where JSON lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
  /**
   * `json`: one JSON object a line, for log collectors. `pretty`: a line a person reads (time, level, message,
   * the rest of the members after it). `auto` (the default): pretty on a terminal, JSON anywhere else and
   * whenever a destination is given.
   */
  format?: LogFormat;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

/** The format `auto` stands for: a person at a terminal reads pretty lines; pipes, files and collectors get JSON. */
export function resolveLogFormat(
  format: LogFormat | undefined,
  destination?: NodeJS.WritableStream,
): 'json' | 'pretty' {
  if (format === 'json' || format === 'pretty') return format;
  return !destination && process.stdout.isTTY ? 'pretty' : 'json';
}

/** pino-pretty, written synchronously as the JSON lines are, so a crash never loses the last lines. */
function prettyStream(destination?: NodeJS.WritableStream): pino.DestinationStream {
  return PinoPretty({
    colorize: !destination && process.stdout.isTTY === true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    // The boot tree's data is in its message already, drawn as a tree; app is the same on every line. Who
    // logged (plugin, component, service) leads the message; the other members follow it on the same line.
    ignore: 'pid,hostname,app,bootTree,plugin,component,service',
    messageFormat: '{if plugin}{plugin}: {end}{if component}{component}: {end}{if service}{service}: {end}{msg}',
    singleLine: true,
    ...(destination ? { destination: destination as unknown as number } : {}),
  });
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
    // A failed connection quotes its URL, password included.
    if (typeof value === 'string') serialized[key] = maskUrlPasswords(excerpt(value, ERROR_TEXT_MAX));
    else if (Array.isArray(value) && key === 'bindings') serialized[key] = `[${value.length} values]`;
  }
  return serialized;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A text a client chose (a user name), fit for a log line: at most `max` characters, control characters and
 * line separators written as \uXXXX, so that it cannot forge a line of its own in a pretty log or a terminal.
 */
export function loggableText(text: string, max = 64): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { app: 'vela' },
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: boundedError },
    },
    resolveLogFormat(options.format, options.destination) === 'pretty'
      ? prettyStream(options.destination)
      : ((options.destination ?? pino.destination({ dest: 1, sync: true })) as pino.DestinationStream),
  );
}
