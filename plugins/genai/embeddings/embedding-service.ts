import type { Logger, OutboundGuard } from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import { Embedder, type EmbedResult } from '../providers/embedder.js';
import { EMBEDDING_PROTOCOLS } from '../providers/embedding-protocols.js';
import { UpstreamError, type Usage } from '../providers/provider.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../providers/retry.js';
import { vendorOf } from '../providers/vendors.js';
import type { InstanceStore, LlmInstance } from '../store/instance-store.js';
import type { TokenCounter } from '../usage/token-counter.js';
import { recordUsage, type TokenUsageStore } from '../usage/token-usage.js';

export interface EmbeddingServiceDeps {
  instances: InstanceStore;
  outbound: () => OutboundGuard;
  usage: TokenUsageStore;
  counter: TokenCounter;
  logger: Logger;
  retry?: RetryPolicy;
}

export interface Embeddings {
  model: string;
  dimensions: number;
  vectors: number[][];
  usage: Usage & { reported: boolean };
}

export interface EmbedCall {
  /** Whose tokens these are, in the usage records. */
  username: string;
  /** Ends the requests (the caller left, or stops). */
  signal?: AbortSignal;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0, reported: false };

/**
 * The embeddings an instance offers: its vendor's protocol with its embeddingModel, within the instance's time
 * limit, the tokens recorded as chats' are (counted with the tokenizer when the server reports none). The
 * dimension each instance's model answered with is remembered: a server that later answers another one is an
 * error, since vectors of two dimensions cannot be compared. A change of the instance forgets it.
 */
export class EmbeddingService {
  /** By instance id: the dimension its model answered with, as of the instance's updatedAt. */
  private readonly dimensions = new Map<string, { updatedAt: string; dimensions: number }>();

  constructor(private readonly deps: EmbeddingServiceDeps) {}

  async embed(instance: LlmInstance, texts: string[], call: EmbedCall): Promise<Embeddings> {
    const embedder = this.embedderOf(instance);
    const known = this.dimensions.get(instance.id);
    const dimensions = known?.updatedAt === instance.updatedAt ? known.dimensions : null;
    // Nothing to ask the server (and no usage to record): a caller's empty batch is not an error.
    if (texts.length === 0)
      return { model: instance.embeddingModel ?? '', dimensions: dimensions ?? 0, vectors: [], usage: NO_USAGE };
    const limit = AbortSignal.timeout(instance.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, limit]) : limit;
    let result: EmbedResult;
    try {
      result = await embedder.embed(texts, { signal, dimensions });
    } catch (error) {
      if (limit.aborted)
        throw genaiErrors.upstreamTimeout(`the embeddings took longer than ${instance.timeoutMs} ms (timeoutMs)`);
      throw error instanceof UpstreamError ? genaiErrors.upstream(error.message) : error;
    }
    this.dimensions.set(instance.id, { updatedAt: instance.updatedAt, dimensions: result.dimensions });
    const usage = await this.record(instance, texts, result.usage, call.username);
    return { model: instance.embeddingModel ?? '', dimensions: result.dimensions, vectors: result.vectors, usage };
  }

  /** 409 for an instance without embeddings, 409 when it is disabled. */
  private embedderOf(instance: LlmInstance): Embedder {
    const protocol = vendorOf(instance.vendor)?.embeddings;
    if (!protocol || !instance.embeddingModel || !instance.url) throw genaiErrors.embeddingsNotOffered(instance.id);
    if (!instance.enabled) throw genaiErrors.instanceDisabled(instance.id);
    return new Embedder({
      name: `LLM instance "${instance.title}" (${instance.id})`,
      protocol: EMBEDDING_PROTOCOLS[protocol],
      target: { url: instance.url, model: instance.embeddingModel, apiKey: this.deps.instances.apiKeyOf(instance.id) },
      fetch: (url, init) => this.deps.outbound().fetch(url, init),
      batchSize: instance.embeddingBatchSize,
      maxBatchChars: instance.embeddingMaxChars,
      retry: this.deps.retry ?? DEFAULT_RETRY,
    });
  }

  private async record(
    instance: LlmInstance,
    texts: string[],
    reported: Usage | null,
    username: string,
  ): Promise<Usage & { reported: boolean }> {
    let usage = reported;
    if (!usage) {
      const inputTokens = await this.deps.counter.tokens(texts.join('\n'));
      usage = { inputTokens, outputTokens: 0, totalTokens: inputTokens };
    }
    await recordUsage(this.deps.usage, this.deps.logger, instance, {
      modelName: instance.embeddingModel ?? '',
      username,
      endpoint: 'embeddings',
      usage,
      reported: reported !== null,
    });
    return { ...usage, reported: reported !== null };
  }
}
