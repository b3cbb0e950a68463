import { EventSource } from 'eventsource';

export interface SseEvent {
  type: string;
  data: any;
  /** Milliseconds since the request was made. */
  at: number;
}

export interface SseRun {
  events: SseEvent[];
  /** Set when the stream failed as a whole (a non-200 answer, a cut connection before a final event). */
  error?: { code?: number; message?: string };
}

export const EVENT_NAMES = ['start', 'delta', 'tool_call', 'tool_result', 'done', 'failed', 'disabled'];
const FINAL = new Set(['done', 'failed', 'disabled']);

export interface SseRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Called with every event as it arrives; `close` ends the stream from the client's side. */
  onEvent?: (event: SseEvent, close: () => void) => void;
}

/**
 * Reads a chat stream with a real SSE client (the `eventsource` package, WHATWG EventSource), POST bodies
 * through its `fetch` option. Resolves at the first final event (done, failed, disabled), when the client
 * closes it, or on an error, closing the EventSource so it never reconnects.
 */
export function readSse(url: string, request: SseRequest = {}): Promise<SseRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const events: SseEvent[] = [];
    let settled = false;
    const source = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          method: request.method ?? 'GET',
          headers: {
            ...(init?.headers as Record<string, string>),
            ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...request.headers,
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        }),
    });
    const finish = (error?: SseRun['error']) => {
      if (settled) return;
      settled = true;
      source.close();
      resolve(error ? { events, error } : { events });
    };
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        const event = { type: name, data: JSON.parse((message as MessageEvent).data), at: performance.now() - started };
        events.push(event);
        request.onEvent?.(event, () => finish());
        if (FINAL.has(name)) finish();
      });
    }
    source.addEventListener('error', (error) =>
      finish({ code: (error as { code?: number }).code, message: (error as { message?: string }).message }),
    );
  });
}

export const textOf = (run: SseRun) =>
  run.events
    .filter((e) => e.type === 'delta')
    .map((e) => e.data.text)
    .join('');
export const typesOf = (run: SseRun) => run.events.map((e) => e.type);
/** The event types with each run of deltas shown once. */
export const shapeOf = (run: SseRun) =>
  typesOf(run).filter((type, i, all) => type !== 'delta' || all[i - 1] !== 'delta');
