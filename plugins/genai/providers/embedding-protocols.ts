import { UpstreamError, type Usage } from './provider.js';
import type { EmbeddingProtocolId } from './vendors.js';

/** Where and as whom an instance's embeddings are asked for. */
export interface EmbeddingTarget {
  /** The instance's base URL. */
  url: string;
  /** The embedding model (Azure OpenAI: the deployment). */
  model: string;
  apiKey: string | null;
}

export interface EmbeddingRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: unknown;
}

/** One answer: a vector per text, in the order of the texts; usage null when the server reports none. */
export interface EmbeddingAnswer {
  vectors: number[][];
  usage: Usage | null;
}

/** A vendor's embeddings API: the request for a batch of texts, and the reading of its answer. */
export interface EmbeddingProtocol {
  request(target: EmbeddingTarget, texts: string[]): EmbeddingRequest;
  parse(answer: unknown): EmbeddingAnswer;
}

/** Azure OpenAI's generally available data-plane version that serves embeddings. */
export const AZURE_API_VERSION = '2024-10-21';

const base = (url: string) => url.replace(/\/+$/, '');
/** The API key as the vendor wants it sent; no header without a key (a local server needs none). */
const keyHeader = (name: string, apiKey: string | null, prefix = ''): Record<string, string> =>
  apiKey ? { [name]: `${prefix}${apiKey}` } : {};
const bearer = (apiKey: string | null) => keyHeader('authorization', apiKey, 'Bearer ');
const inputUsage = (tokens: number | undefined, total = tokens): Usage | null =>
  tokens === undefined ? null : { inputTokens: tokens, outputTokens: 0, totalTokens: total ?? tokens };

interface OpenAiAnswer {
  data?: Array<{ index?: number; embedding?: unknown }>;
  usage?: { prompt_tokens?: number; total_tokens?: number };
}

/** OpenAI's answer (Azure's too): data[] carries its index, which says the order (it is not promised otherwise). */
function parseOpenAi(answer: unknown): EmbeddingAnswer {
  const { data, usage } = answer as OpenAiAnswer;
  if (!Array.isArray(data)) throw new UpstreamError('the LLM server answered embeddings without a data array');
  const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return {
    vectors: ordered.map((item) => item.embedding as number[]),
    usage: inputUsage(usage?.prompt_tokens, usage?.total_tokens),
  };
}

/** POST <url>/embeddings {model, input: [...]}, as OpenAI and the servers that copy it answer it. */
const openAi: EmbeddingProtocol = {
  request: (target, texts) => ({
    endpoint: `${base(target.url)}/embeddings`,
    headers: bearer(target.apiKey),
    body: { model: target.model, input: texts },
  }),
  parse: parseOpenAi,
};

/** Ollama's native POST /api/embed {model, input}: {embeddings: [[...]], prompt_eval_count}; the URL may end in /v1. */
const ollama: EmbeddingProtocol = {
  request: (target, texts) => ({
    endpoint: `${base(target.url).replace(/\/v1$/, '')}/api/embed`,
    headers: bearer(target.apiKey),
    body: { model: target.model, input: texts },
  }),
  parse: (answer) => {
    const { embeddings, prompt_eval_count } = answer as { embeddings?: unknown; prompt_eval_count?: number };
    if (!Array.isArray(embeddings)) throw new UpstreamError('the LLM server answered without an embeddings array');
    return { vectors: embeddings as number[][], usage: inputUsage(prompt_eval_count) };
  },
};

/** Azure OpenAI: the deployment in the path, the api-version in the query, the key in the api-key header. */
const azureOpenAi: EmbeddingProtocol = {
  request: (target, texts) => ({
    endpoint: `${base(target.url)}/openai/deployments/${encodeURIComponent(target.model)}/embeddings?api-version=${AZURE_API_VERSION}`,
    headers: keyHeader('api-key', target.apiKey),
    body: { input: texts },
  }),
  parse: parseOpenAi,
};

const geminiModel = (model: string) => (model.startsWith('models/') ? model : `models/${model}`);

/** Gemini's models/{model}:batchEmbedContents, key in x-goog-api-key; embeddings[] in request order, no usage. */
const gemini: EmbeddingProtocol = {
  request: (target, texts) => {
    const model = geminiModel(target.model);
    return {
      endpoint: `${base(target.url)}/${model}:batchEmbedContents`,
      headers: keyHeader('x-goog-api-key', target.apiKey),
      body: { requests: texts.map((text) => ({ model, content: { parts: [{ text }] } })) },
    };
  },
  parse: (answer) => {
    const { embeddings } = answer as { embeddings?: Array<{ values?: unknown }> };
    if (!Array.isArray(embeddings)) throw new UpstreamError('the LLM server answered without an embeddings array');
    return { vectors: embeddings.map((e) => e.values as number[]), usage: null };
  },
};

export const EMBEDDING_PROTOCOLS: Record<EmbeddingProtocolId, EmbeddingProtocol> = {
  openai: openAi,
  ollama,
  'azure-openai': azureOpenAi,
  gemini,
};
