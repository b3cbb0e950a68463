// The genai plugin's published contract: types only. genai provides one service, `genai.embeddings` (the
// embeddings of LLM instances, for semantic search), and declares no hook. Import this file with `import type`.
// What clients build on is its HTTP API, above all the Server-Sent Events of every chat stream, whose payloads
// are typed here so that a client or another plugin written in TypeScript reads them without guessing
// (docs/genai.md, "The events").

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

/** An LLM instance that offers embeddings: it names an embeddingModel, and its vendor has an embeddings protocol. */
export interface EmbeddingInstance {
  id: string;
  title: string;
  vendor: string;
  /** Its embeddingModel (Azure OpenAI: the deployment). */
  model: string;
  /** A disabled instance embeds nothing (409 llm_instance_disabled). */
  enabled: boolean;
}

/** The vectors of a list of texts, one per text, in order; every vector has `dimensions` numbers. */
export interface EmbeddedTexts {
  model: string;
  dimensions: number;
  vectors: number[][];
}

/**
 * The `genai.embeddings` service: LLM instances' embedding models, for other plugins (the semantic plugin embeds
 * documents and queries with the instance a site names). Errors are VelaErrors with these codes: 404
 * `llm_instance_not_found`; 409 `embeddings_not_offered`, `llm_instance_disabled`; 502 `upstream_error` (the
 * server failed after the retries, or answered vectors of another dimension than before: a dimension is fixed
 * until the instance is changed); 504 `upstream_timeout` (past the instance's timeoutMs, which bounds the whole
 * call: send a few hundred texts at a time, not a site).
 */
export interface GenaiEmbeddings {
  /** The instances that offer embeddings, enabled or not, by title. */
  instances(): EmbeddingInstance[];
  /**
   * The vectors of `texts` by that instance's embedding model: in batches of its embeddingBatchSize and
   * embeddingMaxChars, each retried on 429 and 5xx; the tokens recorded under `username` (endpoint
   * `embeddings`). An empty list asks the server nothing (`dimensions` is then the last known one, or 0).
   */
  embed(
    instanceId: string,
    texts: string[],
    options: { username: string; signal?: AbortSignal },
  ): Promise<EmbeddedTexts>;
}

declare module 'vela/plugin' {
  interface ServiceRegistry {
    'genai.embeddings': GenaiEmbeddings;
  }
}
