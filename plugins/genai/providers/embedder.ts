import type { OutboundFetch } from 'vela/plugin';
import type { EmbeddingProtocol, EmbeddingTarget } from './embedding-protocols.js';
import { UpstreamError, type Usage } from './provider.js';
import { type RetryPolicy, withRetries } from './retry.js';
import { postUpstream } from './upstream-request.js';

export interface EmbedderSettings {
  /** Who answers, for messages: `LLM instance "<title>"`. */
  name: string;
  protocol: EmbeddingProtocol;
  target: EmbeddingTarget;
  /** The runtime's outbound guard (`outbound.fetch`). */
  fetch: OutboundFetch;
  /** Most texts in one request. */
  batchSize: number;
  /** Most characters in one request (a longer text goes alone). */
  maxBatchChars: number;
  retry: RetryPolicy;
}

export interface EmbedOptions {
  signal: AbortSignal;
  /** The dimension earlier answers of this model had; every vector must have it. */
  dimensions?: number | null;
}

export interface EmbedResult {
  /** One per text, in the order of the texts. */
  vectors: number[][];
  dimensions: number;
  /** Summed over the requests; null when a request's answer reported none. */
  usage: Usage | null;
  requests: number;
}

/** The texts cut into requests of at most `size` texts and `maxChars` characters, in order. */
export function batchesOf(texts: string[], size: number, maxChars: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= size || chars + text.length > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

const addUsage = (a: Usage | null, b: Usage | null): Usage | null =>
  a && b
    ? {
        inputTokens: a.inputTokens + b.inputTokens,
        outputTokens: a.outputTokens + b.outputTokens,
        totalTokens: a.totalTokens + b.totalTokens,
      }
    : null;

/**
 * Embeddings of an instance's model: the texts in batches, one request at a time (a model server is not
 * flooded), each retried on 429 and 5xx. The first answer fixes the dimension unless the caller knows it
 * already; an answer with another one, or with a vector too many or too few, is an UpstreamError naming the
 * instance.
 */
export class Embedder {
  constructor(private readonly settings: EmbedderSettings) {}

  async embed(texts: string[], options: EmbedOptions): Promise<EmbedResult> {
    const { batchSize, maxBatchChars } = this.settings;
    const vectors: number[][] = [];
    let dimensions = options.dimensions ?? null;
    let usage: Usage | null = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const batches = batchesOf(texts, batchSize, maxBatchChars);
    for (const batch of batches) {
      const answer = await withRetries(() => this.request(batch, options.signal), this.settings.retry, options.signal);
      dimensions = this.checked(answer.vectors, batch.length, dimensions);
      vectors.push(...answer.vectors);
      usage = addUsage(usage, answer.usage);
    }
    return { vectors, dimensions: dimensions ?? 0, usage: texts.length > 0 ? usage : null, requests: batches.length };
  }

  private async request(texts: string[], signal: AbortSignal) {
    const { protocol, target, fetch } = this.settings;
    const { endpoint, headers, body } = protocol.request(target, texts);
    const response = await postUpstream(fetch, endpoint, { headers, body, signal });
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      if (signal.aborted) throw signal.reason;
      throw this.failure('answered embeddings that are not JSON');
    }
    return protocol.parse(json);
  }

  /** The dimension of a batch's vectors, which must be `expected` when that is known. */
  private checked(vectors: number[][], count: number, expected: number | null): number {
    if (vectors.length !== count) throw this.failure(`answered ${vectors.length} embeddings for ${count} texts`);
    let dimensions = expected;
    for (const vector of vectors) {
      if (!Array.isArray(vector) || vector.length === 0 || !vector.every(Number.isFinite))
        throw this.failure('answered an embedding that is not a list of numbers');
      dimensions ??= vector.length;
      if (vector.length !== dimensions)
        throw this.failure(`changed the embedding dimension from ${dimensions} to ${vector.length}`);
    }
    return dimensions ?? 0;
  }

  private failure(what: string): UpstreamError {
    return new UpstreamError(`the server of ${this.settings.name} ${what}`);
  }
}
