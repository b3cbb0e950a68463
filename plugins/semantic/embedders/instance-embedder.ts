import type { GenaiEmbeddings } from '@vela/plugin-genai/api';
import { normalised, type SiteEmbedder } from './site-embedder.js';

/** Who the embeddings of background work are recorded for in the token usage. */
const WORKER = 'semantic-indexer';

/**
 * An LLM instance's embedding model (through the genai plugin: its vendor's protocol, batching, retries, token
 * usage). Vectors are stored at unit length, so every vendor's answers compare by dot product.
 */
export class InstanceEmbedder implements SiteEmbedder {
  readonly key: string;

  constructor(
    private readonly instanceId: string,
    model: string,
    private readonly embeddings: GenaiEmbeddings,
  ) {
    this.key = `instance:${instanceId}:${model}`;
  }

  async embedPassages(texts: string[], signal: AbortSignal): Promise<Array<Float32Array | null>> {
    const answer = await this.embeddings.embed(this.instanceId, texts, { username: WORKER, signal });
    return answer.vectors.map((v) => normalised(v));
  }

  async embedQuery(text: string, signal: AbortSignal, username = 'anonymous'): Promise<Float32Array | null> {
    const answer = await this.embeddings.embed(this.instanceId, [text], { username, signal });
    return answer.vectors[0] ? normalised(answer.vectors[0]) : null;
  }
}
