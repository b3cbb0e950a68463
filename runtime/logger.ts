import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Where JSON lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
const redactPaths = [
  'password', '*.password', 'secret', '*.secret', 'token', '*.token', 'authorization', '*.authorization',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers.key', 'headers.authorization', 'headers.cookie', 'headers.key',
];

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    { level: options.level, base: { app: 'vela' }, redact: { paths: redactPaths, censor: '[redacted]' } },
    (options.destination ?? pino.destination({ dest: 1, sync: true })) as pino.DestinationStream,
  );
}
