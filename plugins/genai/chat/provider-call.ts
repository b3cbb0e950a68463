import type { Logger } from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import type { ChatProvider, ProviderRequest, ToolCall, Usage } from '../providers/provider.js';
import type { LlmInstance } from '../store/instance-store.js';
import type { TokenCounter } from '../usage/token-counter.js';
import { recordUsage, type TokenUsageStore, type UsageEndpoint } from '../usage/token-usage.js';
import type { ChatSink } from './chat-response.js';

export interface CallResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: Usage;
  /** Whether the provider reported `usage` (false: counted with the tokenizer). */
  reported: boolean;
}

export interface CallContext {
  instance: LlmInstance;
  provider: ChatProvider;
  username: string;
  endpoint: UsageEndpoint;
}

/**
 * One provider call: deltas to the sink, the instance's idle time limit, and a usage record, counted when the provider
 * reports none.
 */
export class ProviderCalls {
  /** Usage records of ended chats still being counted or written. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly usage: TokenUsageStore,
    private readonly counter: TokenCounter,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the usage of every chat that has ended is recorded: a stop waits for it. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  async call(
    context: CallContext,
    request: Omit<ProviderRequest, 'signal'>,
    signal: AbortSignal,
    sink: Pick<ChatSink, 'delta'>,
  ): Promise<CallResult> {
    const { instance, provider } = context;
    const idle = new AbortController();
    const idleMs = instance.idleTimeoutMs;
    const stall = () => idle.abort(genaiErrors.upstreamTimeout(`the LLM server sent nothing for ${idleMs} ms`));
    let timer = setTimeout(stall, idleMs);
    const combined = AbortSignal.any([signal, idle.signal]);
    let text = '';
    let end: { finishReason: string; toolCalls: ToolCall[]; usage: Usage | null; model?: string } | null = null;
    try {
      for await (const event of provider.stream({ ...request, signal: combined })) {
        clearTimeout(timer);
        timer = setTimeout(stall, idleMs);
        if (event.type === 'delta') {
          text += event.text;
          sink.delta(event.text);
        } else {
          end = event;
        }
      }
      if (!end) throw genaiErrors.upstream('the provider ended without finishing its answer');
      const result = await this.account(context, request, text, end.toolCalls, end.usage, end.model);
      return { text, toolCalls: end.toolCalls, finishReason: end.finishReason, ...result };
    } catch (error) {
      // What was generated before a failure or a disconnect was still generated: it is recorded (counted), after
      // the client has been told of the failure, not before.
      if (text) {
        const recorded: Promise<void> = this.account(context, request, text, [], null, undefined)
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => this.pending.delete(recorded));
        this.pending.add(recorded);
      }
      throw combined.aborted ? combined.reason : error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async account(
    context: CallContext,
    request: Omit<ProviderRequest, 'signal'>,
    text: string,
    toolCalls: ToolCall[],
    reported: Usage | null,
    model: string | undefined,
  ): Promise<{ usage: Usage; reported: boolean }> {
    let usage = reported;
    if (!usage) {
      const prompt = request.messages
        .map((m) => `${m.role}: ${m.content ?? ''}${m.toolCalls ? JSON.stringify(m.toolCalls) : ''}`)
        .join('\n');
      const grounding = context.provider.readsPassages ? (request.passages ?? []).map((p) => p.text).join('\n') : '';
      const tools = request.tools?.length ? JSON.stringify(request.tools) : '';
      const inputTokens = await this.counter.tokens(`${prompt}\n${grounding}\n${tools}`);
      const outputTokens = await this.counter.tokens(text + toolCalls.map((c) => `${c.name}(${c.arguments})`).join(''));
      usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
    }
    await recordUsage(this.usage, this.logger, context.instance, {
      modelName: context.instance.modelName ?? model ?? '',
      username: context.username,
      endpoint: context.endpoint,
      usage,
      reported: reported !== null,
    });
    return { usage, reported: reported !== null };
  }
}
