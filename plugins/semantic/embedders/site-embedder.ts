/** What embeds a site's passages and its queries: the built-in model or an LLM instance's embedding model. */
export interface SiteEmbedder {
  /**
   * Names the vector space: vectors of two keys are never compared, and a site whose key changes is embedded
   * again (in the background, its searches going on over the old vectors meanwhile).
   */
  readonly key: string;
  /** Passages, in batches the embedder chooses; null for a text with nothing to embed. */
  embedPassages(texts: string[], signal: AbortSignal): Promise<Array<Float32Array | null>>;
  /** One query, on the request path. */
  embedQuery(text: string, signal: AbortSignal): Promise<Float32Array | null>;
}

/** Unit length, so a dot product is the cosine. Null for a zero vector. */
export function normalised(values: ArrayLike<number>): Float32Array | null {
  const out = Float32Array.from(values);
  let sum = 0;
  for (const v of out) sum += v * v;
  if (!(sum > 0) || !Number.isFinite(sum)) return null;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i]! *= scale;
  return out;
}
