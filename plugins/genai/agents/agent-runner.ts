import type { ChatSink } from '../chat/chat-response.js';
import { instanceSummary, sourcesOf } from '../chat/site-chat.js';
import type { GenaiDomain } from '../domain.js';
import type { ChatMessage, ToolCall, Usage } from '../providers/provider.js';
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
 * One agent turn. With a model that calls tools: up to `maxSteps` calls, each tool call announced
 * (`tool_call`), run through the search plugin's services, and its result announced (`tool_result`) and
 * handed back to the model, until it answers without calling a tool (when the steps run out, one last
 * call without tools makes it answer). With the built-in provider, which calls no tools: a plan of one
 * search with the message as the query, then an extractive answer from what it found.
 */
export async function runAgentTurn(domain: GenaiDomain, turn: AgentTurn, sink: ChatSink, signal: AbortSignal): Promise<AgentOutcome> {
  const { agent, instance } = turn;
  const provider = domain.providerFor(instance);
  const context = { instance, provider, username: turn.username, endpoint: 'agent' as const };
  const found = new FoundSources();
  const turnMessages: ChatMessage[] = [{ role: 'user', content: turn.message }];
  let usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let allReported = true;
  let text = '';
  let finishReason = 'stop';
  let steps = 0;

  const tool = async (call: ToolCall) => {
    sink.toolCall({ id: call.id, name: call.name, arguments: displayArguments(call) });
    const result = await runTool(domain, agent, call, found);
    signal.throwIfAborted();
    sink.toolResult({ id: call.id, name: call.name, result });
    const content = JSON.stringify(result);
    return content.length > MAX_TOOL_RESULT_CHARS ? `${content.slice(0, MAX_TOOL_RESULT_CHARS)}…` : content;
  };
  const account = (result: { usage: Usage; reported: boolean; text: string; finishReason: string }) => {
    steps += 1;
    usage = add(usage, result.usage);
    allReported &&= result.reported;
    text += result.text;
    finishReason = result.finishReason;
  };

  if (provider.supportsTools) {
    const tools = toolSpecs(agent);
    const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt(agent) }, ...turn.history, { role: 'user', content: turn.message }];
    let answered = false;
    while (steps < agent.maxSteps) {
      const result = await domain.calls.call(context, { messages, tools }, signal, sink);
      account(result);
      if (result.toolCalls.length === 0) {
        turnMessages.push({ role: 'assistant', content: result.text });
        answered = true;
        break;
      }
      const asked: ChatMessage = { role: 'assistant', content: result.text || null, toolCalls: result.toolCalls };
      messages.push(asked);
      turnMessages.push(asked);
      for (const call of result.toolCalls) {
        const answer: ChatMessage = { role: 'tool', toolCallId: call.id, content: await tool(call) };
        messages.push(answer);
        turnMessages.push(answer);
      }
    }
    if (!answered) {
      const result = await domain.calls.call(context, { messages }, signal, sink);
      account(result);
      turnMessages.push({ role: 'assistant', content: result.text });
    }
  } else {
    const canSearch = agent.tools.includes('search_site') && agent.sites.length > 0;
    if (canSearch) {
      const call: ToolCall = { id: 'call_1', name: 'search_site', arguments: JSON.stringify({ query: turn.message, site: agent.sites[0] }) };
      const content = await tool(call);
      turnMessages.push({ role: 'assistant', content: null, toolCalls: [call] }, { role: 'tool', toolCallId: call.id, content });
    }
    const result = await domain.calls.call(
      context,
      {
        messages: canSearch ? [{ role: 'user', content: turn.message }] : [...turn.history, { role: 'user', content: turn.message }],
        passages: canSearch ? found.passages : undefined,
      },
      signal,
      sink,
    );
    account(result);
    turnMessages.push({ role: 'assistant', content: result.text });
  }

  return {
    messages: turnMessages,
    done: {
      conversationId: turn.conversationId,
      text,
      sources: found.passages.length > 0 ? sourcesOf(found.passages, text) : [],
      steps,
      finishReason,
      usage: { ...usage, reported: allReported },
      instance: instanceSummary(instance),
    },
  };
}
