// The one interface every provider kind implements: a chat request in, a stream of text deltas out,
// ended by one `end` event with the tool calls the model asked for and the usage the provider reported.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
}

export interface ChatMessage {
  role: Role;
  content: string | null;
  /** An assistant message that called tools. */
  toolCalls?: ToolCall[];
  /** A tool message: the call it answers. */
  toolCallId?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** A numbered passage of a retrieved document: what answers are grounded in and cite as [n]. */
export interface Passage {
  /** The source number the answer cites. */
  n: number;
  docId: string;
  title: string;
  url: string | null;
  text: string;
  /** The document's place in the retrieval (0 = best). */
  docRank: number;
}

export interface ProviderRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /**
   * The retrieved passages the answer is grounded in. Model-backed providers get them inside the messages
   * (the prompt); the extractive provider reads them from here.
   */
  passages?: Passage[];
  signal: AbortSignal;
}

export type ProviderEvent =
  | { type: 'delta'; text: string }
  | { type: 'end'; finishReason: string; toolCalls: ToolCall[]; usage: Usage | null; model?: string };

export interface ChatProvider {
  /** Whether the model can call tools (agents plan for it otherwise: search, then answer). */
  readonly supportsTools: boolean;
  /** Whether it needs the passages in the prompt (model-backed) or reads `passages` (extractive). */
  readonly readsPassages: boolean;
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}

/** An error of the LLM server (HTTP status, an error in the stream, a cut connection), as providers raise it. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The Retry-After header of the answer, as sent (seconds or an HTTP date). */
    readonly retryAfter?: string | null,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
