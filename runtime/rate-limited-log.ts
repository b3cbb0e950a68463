import type { Logger } from './logger.js';

export interface RateLimitedLogOptions {
  /** Lines logged per key in one interval. */
  lines: number;
  intervalMs: number;
}

/** Refusals under load: ten lines a minute per error code, per service. */
export const REFUSAL_LOG_LIMIT: RateLimitedLogOptions = { lines: 10, intervalMs: 60_000 };

/** Failed sign-ins: thirty warn lines a minute per process. */
export const SIGN_IN_LOG_LIMIT: RateLimitedLogOptions = { lines: 30, intervalMs: 60_000 };

/** Keys followed at once: callers key by error code or event, a short list; this bounds a mistake. */
const MAX_KEYS = 1000;

interface Window {
  started: number;
  logged: number;
  suppressed: number;
  level: 'info' | 'warn';
  msg: string;
  timer?: NodeJS.Timeout;
}

/**
 * Log lines that any client can cause as often as it likes (a refusal under load, a failed sign-in): at most
 * `lines` per key in each interval, so a flood of requests cannot flood the log or hide what else it says. Past
 * that they are counted, and when the interval ends one line says how many were left out.
 */
export class RateLimitedLog {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly logger: Logger,
    private readonly options: RateLimitedLogOptions = REFUSAL_LOG_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  info(key: string, fields: Record<string, unknown>, msg: string): void {
    this.log('info', key, fields, msg);
  }

  warn(key: string, fields: Record<string, unknown>, msg: string): void {
    this.log('warn', key, fields, msg);
  }

  /** Log the summary lines now (a stop does not wait for the intervals to end). */
  flush(): void {
    for (const [key, window] of this.windows) this.close(key, window);
  }

  private log(level: 'info' | 'warn', key: string, fields: Record<string, unknown>, msg: string): void {
    const at = this.now();
    let window = this.windows.get(key);
    if (window && at - window.started >= this.options.intervalMs) {
      this.close(key, window);
      window = undefined;
    }
    if (!window) {
      if (this.windows.size >= MAX_KEYS) this.close(...(this.windows.entries().next().value as [string, Window]));
      window = { started: at, logged: 0, suppressed: 0, level, msg };
      this.windows.set(key, window);
    }
    if (window.logged < this.options.lines) {
      window.logged += 1;
      this.logger[level](fields, msg);
      return;
    }
    window.suppressed += 1;
    window.level = level;
    window.msg = msg;
    if (!window.timer) {
      const open = window;
      // Unref'd: a summary never keeps a stopping process alive.
      open.timer = setTimeout(
        () => this.close(key, open),
        Math.max(0, open.started + this.options.intervalMs - at),
      ).unref();
    }
  }

  private close(key: string, window: Window): void {
    clearTimeout(window.timer);
    if (this.windows.get(key) === window) this.windows.delete(key);
    if (window.suppressed === 0) return;
    const { lines, intervalMs } = this.options;
    const interval = intervalMs % 1000 === 0 ? `${intervalMs / 1000} s` : `${intervalMs} ms`;
    this.logger[window.level](
      { key, suppressed: window.suppressed, intervalMs },
      `${window.msg}: ${window.suppressed} more left out of the log (at most ${lines} lines per ${interval})`,
    );
  }
}
