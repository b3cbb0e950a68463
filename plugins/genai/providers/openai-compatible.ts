import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { OutboundFetch } from 'vela/plugin';
import {
  type ChatMessage,
  type ChatProvider,
  type ProviderEvent,
  type ProviderRequest,
  type ToolCall,
  UpstreamError,
  type Usage,
} from './provider.js';
import { ERROR_EXCERPT, postUpstream } from './upstream-request.js';

export interface OpenAiSettings {
  /** The base URL, the part before /chat/completions (http://127.0.0.1:11434/v1). */
  url: string;
  model: string;
  apiKey: string | null;
  temperature: number | null;
  topP: number | null;
  maxTokens: number | null;
  /** The runtime's outbound guard (`outbound.fetch`). */
  fetch: OutboundFetch;
}

interface ChunkChoice {
  delta?: {
    content?: string | null;
    tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
  };
  message?: {
    content?: string | null;
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  };
  finish_reason?: string | null;
}

interface Chunk {
  model?: string;
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  error?: { message?: string } | string;
}

function toWire(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content ?? '' };
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content: message.content,
      tool_calls: message.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: message.role, content: message.content ?? '' };
}

function usageOf(raw: Chunk['usage']): Usage | null {
  if (!raw) return null;
  const input = raw.prompt_tokens ?? 0;
  const output = raw.completion_tokens ?? 0;
  if (input === 0 && output === 0 && !raw.total_tokens) return null;
  return { inputTokens: input, outputTokens: output, totalTokens: raw.total_tokens ?? input + output };
}

/**
 * A chat-completions client for OpenAI and every server that speaks its protocol (Ollama's /v1, vLLM,
 * llama.cpp's server, LM Studio, gateways): POST <url>/chat/completions with stream: true and
 * stream_options.include_usage, the answer parsed as Server-Sent Events (eventsource-parser) into text
 * deltas, tool calls assembled from their fragments, the usage of the last chunk. An error answer, an
 * error object in the stream, a chunk that is not JSON, or a stream that ends before a finish reason or
 * [DONE] is an UpstreamError; an abort (the client left, a time limit) ends the request to the server.
 * Requests go through the runtime's outbound guard.
 */
export class OpenAiCompatibleProvider implements ChatProvider {
  readonly supportsTools = true;
  readonly readsPassages = false;

  constructor(private readonly settings: OpenAiSettings) {}

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const { settings } = this;
    const endpoint = `${settings.url.replace(/\/+$/, '')}/chat/completions`;
    const body: Record<string, unknown> = {
      model: settings.model,
      messages: request.messages.map(toWire),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (settings.temperature !== null) body.temperature = settings.temperature;
    if (settings.topP !== null) body.top_p = settings.topP;
    if (settings.maxTokens !== null) body.max_tokens = settings.maxTokens;
    if (request.tools?.length) {
      body.tools = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    const response = await postUpstream(settings.fetch, endpoint, { headers, body, signal: request.signal });
    if ((response.headers.get('content-type') ?? '').includes('application/json')) {
      // A server that ignored stream: true answers one completion.
      yield* this.completion((await response.json()) as Chunk);
      return;
    }
    yield* this.events(response.body as AsyncIterable<Uint8Array> | null, request.signal);
  }

  private *completion(chunk: Chunk): Iterable<ProviderEvent> {
    if (chunk.error)
      throw new UpstreamError(
        `the LLM server reported an error: ${typeof chunk.error === 'string' ? chunk.error : chunk.error.message}`,
      );
    const choice = chunk.choices?.[0];
    const content = choice?.message?.content;
    if (content) yield { type: 'delta', text: content };
    const toolCalls = (choice?.message?.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${i}`,
      name: c.function?.name ?? '',
      arguments: c.function?.arguments ?? '',
    }));
    yield {
      type: 'end',
      finishReason: choice?.finish_reason ?? 'stop',
      toolCalls,
      usage: usageOf(chunk.usage),
      model: chunk.model,
    };
  }

  private async *events(body: AsyncIterable<Uint8Array> | null, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    if (!body) throw new UpstreamError('the LLM server answered without a body');
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => pending.push(event) });
    const decoder = new TextDecoder();
    const calls = new Map<number, ToolCall>();
    let finishReason: string | null = null;
    let usage: Usage | null = null;
    let model: string | undefined;
    let done = false;
    try {
      for await (const bytes of body) {
        parser.feed(decoder.decode(bytes, { stream: true }));
        while (pending.length > 0) {
          const event = pending.shift()!;
          if (event.data === '[DONE]') {
            done = true;
            break;
          }
          let chunk: Chunk;
          try {
            chunk = JSON.parse(event.data) as Chunk;
          } catch {
            throw new UpstreamError(`the LLM server sent a stream chunk that is not JSON: ${event.data.slice(0, 100)}`);
          }
          if (chunk.error || event.event === 'error') {
            const message =
              typeof chunk.error === 'string'
                ? chunk.error
                : (chunk.error?.message ?? event.data.slice(0, ERROR_EXCERPT));
            throw new UpstreamError(`the LLM server reported an error mid-stream: ${message}`);
          }
          model = chunk.model ?? model;
          usage = usageOf(chunk.usage) ?? usage;
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const text = choice.delta?.content;
          if (text) yield { type: 'delta', text };
          for (const fragment of choice.delta?.tool_calls ?? []) {
            const index = fragment.index ?? 0;
            const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
            if (fragment.id) call.id = fragment.id;
            if (fragment.function?.name) call.name += fragment.function.name;
            if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
            calls.set(index, call);
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        if (done) break;
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError(`the connection to the LLM server failed mid-stream: ${(error as Error).message}`);
    }
    if (signal.aborted) throw signal.reason;
    if (!done && !finishReason)
      throw new UpstreamError('the LLM server closed the stream before the answer was complete');
    const toolCalls = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    yield { type: 'end', finishReason: finishReason ?? 'stop', toolCalls, usage, model };
  }
}
