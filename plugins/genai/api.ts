// The genai plugin's published contract: types only. genai provides no service and declares no hook; it
// consumes `db`, `outbound`, `search.service` and `search.sites`. What other code builds on is its HTTP API,
// above all the Server-Sent Events of every chat stream, whose payloads are typed here so that a client or
// another plugin written in TypeScript reads them without guessing (docs/genai.md, "The events").

export type {
  ChatMessage,
  ChatProvider,
  Passage,
  ProviderEvent,
  ProviderRequest,
  Role,
  ToolCall,
  ToolSpec,
  Usage,
} from './providers/provider.js';
export type { ProviderKind, Vendor } from './providers/vendors.js';

/** `{id, title, vendor, model}` of the LLM instance that answers, in `start` and `done`. */
export interface ChatInstanceRef {
  id: string;
  title: string;
  vendor: string;
  model: string | null;
}

/** Token counts of one chat; `reported` is false when Vela counted them with its tokenizer. */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reported: boolean;
}

/** A document an answer cites as `[n]`; show `url` as a link only when it is http: or https:. */
export interface ChatSource {
  n: number;
  id: string;
  title: string;
  url: string | null;
}

/** The data of each event, by event name, in the order `start (delta | tool_call | tool_result)* (done | failed)`. */
export interface ChatEvents {
  start: {
    instance: ChatInstanceRef;
    site?: string;
    locale?: string;
    question?: string;
    agent?: { id: string; name: string };
    conversationId?: string;
  };
  delta: { text: string };
  tool_call: { id: string; name: string; arguments: unknown };
  tool_result: { id: string; name: string; result: unknown };
  done: {
    text: string;
    finishReason: string;
    usage: ChatUsage | null;
    instance: ChatInstanceRef;
    sources?: ChatSource[];
    conversationId?: string;
    steps?: number;
  };
  failed: { error: string; message: string };
  /** Site chat on a site that does not chat: the only event. */
  disabled: { enabled: false; text: null; sources: []; site: string; message: string };
}

export type ChatEventName = keyof ChatEvents;
