import type { VectorMatch, VectorRetriever, VectorStatus } from '@vela/plugin-search/api';
import type { EmbedderCache } from '../embedders/embedder-cache.js';
import { normalised } from '../embedders/site-embedder.js';
import type { ScopeStatus } from '../indexing/semantic-indexer.js';
import type { VectorStore } from '../store/vector-store.js';
import type { VectorIndexes } from './vector-indexes.js';

export interface SemanticRetrieverDeps {
  statusOf: (siteId: string, locale: string) => ScopeStatus;
  embedders: EmbedderCache;
  vectors: VectorStore;
  /** null: vectors are searched in SQL (the PostgreSQL engine), so search processes keep no state of their own. */
  indexes: VectorIndexes | null;
  /** Longest a query's embedding may take (an LLM instance's model answers over the network). */
  queryTimeoutMs: number;
}

/**
 * The vector side of the search plugin's hybrid and vector modes (registered through `search.vectors`): a query
 * embedded by the site's active model, then its nearest documents by their best passage, from this process's ANN
 * index or in SQL.
 */
export class SemanticRetriever implements VectorRetriever {
  constructor(private readonly deps: SemanticRetrieverDeps) {}

  status(siteId: string, locale: string): VectorStatus {
    return this.deps.statusOf(siteId, locale).status;
  }

  async nearest(siteId: string, locale: string, text: string, k: number): Promise<VectorMatch[]> {
    const modelKey = this.activeModel(siteId, locale);
    if (!modelKey) return [];
    const embedder = await this.deps.embedders.of(siteId, locale, modelKey);
    const query = await embedder.embedQuery(text, AbortSignal.timeout(this.deps.queryTimeoutMs));
    return query ? this.search(siteId, locale, modelKey, query, k, new Set()) : [];
  }

  /** Documents nearest the centre of the given documents' passages, those left out. */
  async similar(siteId: string, locale: string, ids: string[], k: number): Promise<VectorMatch[]> {
    const modelKey = this.activeModel(siteId, locale);
    if (!modelKey || ids.length === 0) return [];
    const read = await this.deps.vectors.read(siteId, locale, modelKey, ids);
    const all = [...read.values()].flat();
    if (all.length === 0) return [];
    const sum = new Float32Array(all[0]!.length);
    for (const v of all) for (let i = 0; i < sum.length; i++) sum[i]! += v[i]!;
    const centre = normalised(sum);
    return centre ? this.search(siteId, locale, modelKey, centre, k, new Set(ids)) : [];
  }

  private activeModel(siteId: string, locale: string): string | null {
    const { status, active } = this.deps.statusOf(siteId, locale);
    return status.ready && active ? active.modelKey : null;
  }

  private async search(
    siteId: string,
    locale: string,
    modelKey: string,
    query: Float32Array,
    k: number,
    skip: Set<string>,
  ): Promise<VectorMatch[]> {
    const { indexes, vectors } = this.deps;
    if (indexes) return indexes.get({ siteId, locale, modelKey })?.nearest(query, k, skip) ?? [];
    const found = await vectors.nearest(siteId, locale, modelKey, query, k + skip.size);
    return found.filter((m) => !skip.has(m.id)).slice(0, k);
  }
}
