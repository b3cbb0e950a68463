import type { VectorRetriever, VectorRetrievers } from '../api.js';

/**
 * The vector retriever the `search.vectors` hook registered, if any: `hybrid` and `vector` searches and More Like
 * This ask it. One at most, since two would have to agree on which documents a site's vectors hold.
 */
export class VectorRetrieverSlot implements VectorRetrievers {
  private held: { name: string; retriever: VectorRetriever } | null = null;

  register(name: string, retriever: VectorRetriever): void {
    if (typeof name !== 'string' || name.trim() === '') throw new Error('a vector retriever needs a name');
    if (this.held)
      throw new Error(
        `vector retriever "${name}" cannot be registered: "${this.held.name}" is, and a search service has at most one`,
      );
    this.held = { name, retriever };
  }

  get retriever(): VectorRetriever | null {
    return this.held?.retriever ?? null;
  }
}
