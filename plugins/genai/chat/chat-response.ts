import type { Logger, Request, Response } from 'vela/plugin';
import { VelaError } from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import { UpstreamError } from '../providers/provider.js';
import { SseStream } from './sse-stream.js';

/** What a chat tells its client as it goes: text as it arrives, and an agent's tool calls and their results. */
export interface ChatSink {
  delta(text: string): void;
  toolCall(call: { id: string; name: string; arguments: unknown }): void;
  toolResult(result: { id: string; name: string; result: unknown }): void;
}

/** Chats in flight, so that a stop ends them at once instead of waiting out the shutdown time. */
export class ActiveChats {
  private readonly controllers = new Set<AbortController>();

  add(controller: AbortController): () => void {
    this.controllers.add(controller);
    return () => this.controllers.delete(controller);
  }

  /** Ends every chat in flight: the runtime is stopping. */
  abortAll(reason: unknown): void {
    for (const controller of this.controllers) controller.abort(reason);
  }

  get size(): number {
    return this.controllers.size;
  }
}

/**
 * SSE unless the client asks for JSON and not for an event stream (EventSource sends Accept: text/event-stream; curl
 * sends *\/*).
 */
export function wantsJson(req: Request): boolean {
  const accept = String(req.headers.accept ?? '');
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

/** The `failed` event (and the JSON error) of an error: its code and message; internal causes go to the log only. */
export function failureOf(error: unknown): VelaError {
  if (error instanceof VelaError) return error;
  if (error instanceof UpstreamError) return genaiErrors.upstream(error.message);
  return new VelaError('internal_error', 'the server failed to answer this request; the cause is in its log', 500);
}

export interface RespondOptions {
  req: Request;
  res: Response;
  json: boolean;
  heartbeatMs: number;
  /** The whole chat's time limit. */
  timeoutMs: number;
  active: ActiveChats;
  logger: Logger;
  /** The `start` event's payload. */
  start: Record<string, unknown>;
  /** Runs the chat; resolves to the `done` event's payload. */
  run: (sink: ChatSink, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** The JSON answer made of the `done` payload (JSON mode). */
  toJson: (done: Record<string, unknown>) => unknown;
  /** Called once the chat has ended, however it ended (releases the instance's slot). */
  finish: () => void;
}

/**
 * One chat answered as an SSE stream (`start`, `delta`..., `tool_call`/`tool_result` for agents, then
 * `done` or `failed`, then the end of the stream) or, for a client that asked for JSON, as one answer
 * once it is complete. The chat is aborted, and with it the request to the model, when the client goes
 * away, when `timeoutMs` passes (`failed` with upstream_timeout) and when the runtime stops.
 */
export async function respond(options: RespondOptions): Promise<void> {
  const { res, logger } = options;
  const controller = new AbortController();
  const untrack = options.active.add(controller);
  const deadline = setTimeout(
    () =>
      controller.abort(
        genaiErrors.upstreamTimeout(`the answer took longer than the time limit of ${options.timeoutMs} ms`),
      ),
    options.timeoutMs,
  );
  const clientGone = () => controller.abort(genaiErrors.clientGone());
  const cleanup = () => {
    clearTimeout(deadline);
    untrack();
    options.finish();
  };

  if (options.json) {
    res.on('close', () => {
      if (!res.writableFinished) clientGone();
    });
    const sink: ChatSink = { delta() {}, toolCall() {}, toolResult() {} };
    try {
      const done = await options.run(sink, controller.signal);
      res.json(options.toJson(done));
    } catch (error) {
      if (!(error instanceof VelaError) && !(error instanceof UpstreamError))
        logger.error({ err: error }, 'chat failed');
      throw failureOf(error);
    } finally {
      cleanup();
    }
    return;
  }

  const stream = new SseStream(res, options.heartbeatMs, clientGone);
  stream.send('start', options.start);
  const sink: ChatSink = {
    delta: (text) => stream.send('delta', { text }),
    toolCall: (call) => stream.send('tool_call', call),
    toolResult: (result) => stream.send('tool_result', result),
  };
  try {
    const done = await options.run(sink, controller.signal);
    stream.send('done', done);
  } catch (error) {
    if (!stream.open) {
      logger.debug({ reason: (error as Error).message }, 'chat stream closed by the client');
    } else {
      const failure = failureOf(error);
      if (!(error instanceof VelaError) && !(error instanceof UpstreamError))
        logger.error({ err: error }, 'chat failed');
      else logger.info({ error: failure.code, message: failure.message }, 'chat ended with an error');
      stream.send('failed', { error: failure.code, message: failure.message });
    }
  } finally {
    cleanup();
    stream.end();
  }
}
