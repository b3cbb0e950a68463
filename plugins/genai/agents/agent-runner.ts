import type { ChatSink } from '../chat/chat-response.js';
import type { CallResult } from '../chat/provider-call.js';
import { instanceSummary, sourcesOf } from '../chat/site-chat.js';
import type { GenaiDomain } from '../domain.js';
import { DEFAULT_COMPOSE, MAX_READ_CHARS, pieces, withinBudget } from '../providers/extractive.js';
import type { ChatMessage, ChatProvider, ProviderRequest, ToolCall, Usage } from '../providers/provider.js';
import { keywords } from '../rag/text.js';
import type { LlmInstance } from '../store/instance-store.js';
import type { Agent } from './agent-store.js';
import { displayArguments, FoundSources, runTool, toolSpecs } from './tools.js';

export interface AgentTurn {
  agent: Agent;
  instance: LlmInstance;
  conversationId: string;
  message: string;
  history: ChatMessage[];
  username: string;
}

export interface AgentOutcome {
  done: Record<string, unknown>;
  /** The turn's messages, to append to the conversation. */
  messages: ChatMessage[];
}

const MAX_TOOL_RESULT_CHARS = 16_000;

function systemPrompt(agent: Agent): string {
  const tools = agent.tools.length > 0 && agent.sites.length > 0;
  return [
    agent.instructions.trim() || 'You are a helpful assistant.',
    tools
      ? `You can search the documents of ${agent.sites.map((s) => `"${s}"`).join(', ')} with your tools. Base your answers on what the tools return, ` +
        'and cite documents by their number in brackets, like [1].'
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

const add = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

/**
 * Between the texts of two model calls of one turn ("Let me search." and "Found it."), in the deltas and in done.text.
 */
export const STEP_SEPARATOR = '\n\n';

/** What a turn has done so far: its text, usage, model calls, what its tools found and its messages. */
class TurnState {
  readonly found = new FoundSources();
  readonly messages: ChatMessage[];
  readonly provider: ChatProvider;
  text = '';
  usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  allReported = true;
  finishReason = 'stop';
  steps = 0;

  constructor(
    private readonly domain: GenaiDomain,
    readonly turn: AgentTurn,
    private readonly sink: ChatSink,
    readonly signal: AbortSignal,
  ) {
    this.messages = [{ role: 'user', content: turn.message }];
    this.provider = domain.providerFor(turn.instance);
  }

  /** The sink of one model call: its text goes on after the earlier calls' text, a blank line between them. */
  stepSink(): Pick<ChatSink, 'delta'> {
    let first = true;
    return {
      delta: (piece) => {
        const joined = first && this.text ? STEP_SEPARATOR + piece : piece;
        first = false;
        this.text += joined;
        this.sink.delta(joined);
      },
    };
  }

  /** One model call with the turn's instance, its deltas streamed and its usage added up. */
  async call(request: Omit<ProviderRequest, 'signal'>): Promise<CallResult> {
    const { instance } = this.turn;
    const context = { instance, provider: this.provider, username: this.turn.username, endpoint: 'agent' as const };
    const result = await this.domain.calls.call(context, request, this.signal, this.stepSink());
    this.steps += 1;
    this.usage = add(this.usage, result.usage);
    this.allReported &&= result.reported;
    this.finishReason = result.finishReason;
    return result;
  }

  /** The built-in provider's answer to `question` from what the tools found (composed on the worker pool). */
  async extractiveAnswer(question: string): Promise<string> {
    return (
      await this.domain.compose({
        question,
        passages: withinBudget(this.found.passages, MAX_READ_CHARS),
        options: DEFAULT_COMPOSE,
      })
    ).text;
  }

  /** Runs a tool call, announced before and after; returns its result as the model reads it. */
  async tool(call: ToolCall): Promise<string> {
    this.sink.toolCall({ id: call.id, name: call.name, arguments: displayArguments(call) });
    const result = await runTool(this.domain, this.turn.agent, call, this.found);
    this.signal.throwIfAborted();
    this.sink.toolResult({ id: call.id, name: call.name, result });
    const content = JSON.stringify(result);
    return content.length > MAX_TOOL_RESULT_CHARS ? `${content.slice(0, MAX_TOOL_RESULT_CHARS)}…` : content;
  }
}

/**
 * A model that calls tools: up to `maxSteps` calls, each tool call run through the search plugin's
 * services and its result handed back, until it answers without calling a tool. When the steps run out,
 * one last call without tools makes it answer; a model that still writes no text gets the built-in
 * provider's answer from what its tools found (finishReason `max_steps`).
 */
async function withTools(state: TurnState): Promise<void> {
  const { agent, history, message } = state.turn;
  const tools = toolSpecs(agent);
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(agent) },
    ...history,
    { role: 'user', content: message },
  ];
  while (state.steps < agent.maxSteps) {
    const result = await state.call({ messages, tools });
    if (result.toolCalls.length === 0) {
      state.messages.push({ role: 'assistant', content: result.text });
      return;
    }
    const asked: ChatMessage = { role: 'assistant', content: result.text || null, toolCalls: result.toolCalls };
    messages.push(asked);
    state.messages.push(asked);
    for (const call of result.toolCalls) {
      const answer: ChatMessage = { role: 'tool', toolCallId: call.id, content: await state.tool(call) };
      messages.push(answer);
      state.messages.push(answer);
    }
  }
  let last = (await state.call({ messages })).text;
  if (!last.trim()) {
    last = await state.extractiveAnswer(message);
    const sink = state.stepSink();
    for (const piece of pieces(last)) sink.delta(piece);
    state.finishReason = 'max_steps';
  }
  state.messages.push({ role: 'assistant', content: last });
}

/**
 * The built-in provider calls no tools: a plan of one search with the message as the query (none when
 * the message has no content word: it would search `*`), then an extractive answer from what it found.
 */
async function withPlan(state: TurnState): Promise<void> {
  const { agent, history, message } = state.turn;
  const canSearch = agent.tools.includes('search_site') && agent.sites.length > 0;
  if (canSearch && keywords(message).length > 0) {
    const call: ToolCall = {
      id: 'call_1',
      name: 'search_site',
      arguments: JSON.stringify({ query: message, site: agent.sites[0] }),
    };
    const content = await state.tool(call);
    state.messages.push(
      { role: 'assistant', content: null, toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, content },
    );
  }
  const result = await state.call({
    messages: canSearch ? [{ role: 'user', content: message }] : [...history, { role: 'user', content: message }],
    passages: canSearch ? state.found.passages : undefined,
  });
  state.messages.push({ role: 'assistant', content: result.text });
}

/** One agent turn: its events go to `sink`; the `done` payload and the turn's messages come back. */
export async function runAgentTurn(
  domain: GenaiDomain,
  turn: AgentTurn,
  sink: ChatSink,
  signal: AbortSignal,
): Promise<AgentOutcome> {
  const state = new TurnState(domain, turn, sink, signal);
  await (state.provider.supportsTools ? withTools(state) : withPlan(state));
  return {
    messages: state.messages,
    done: {
      conversationId: turn.conversationId,
      text: state.text,
      sources: state.found.passages.length > 0 ? sourcesOf(state.found.passages, state.text) : [],
      steps: state.steps,
      finishReason: state.finishReason,
      usage: { ...state.usage, reported: state.allReported },
      instance: instanceSummary(turn.instance),
    },
  };
}
