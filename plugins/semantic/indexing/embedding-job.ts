import type { Database, Logger } from 'vela/plugin';
import type { EmbedderCache } from '../embedders/embedder-cache.js';
import type { ClaimedDocument, EmbeddingStates } from '../store/embedding-states.js';
import type { SemanticSettings } from '../store/settings-store.js';
import type { VectorStore } from '../store/vector-store.js';
import { passages } from './passages.js';
import type { SiteDocuments } from './site-documents.js';

export interface EmbeddingJobDeps {
  db: Database;
  states: EmbeddingStates;
  vectors: VectorStore;
  embedders: EmbedderCache;
  documents: SiteDocuments;
  settings: (siteId: string) => SemanticSettings;
  logger: Logger;
  batchSize: number;
  claimMs: number;
}

/** Documents of one site, locale and model claimed together: they are read and embedded in one go. */
const groupKey = (c: ClaimedDocument) => `${c.siteId}\u0001${c.locale}\u0001${c.modelKey}`;

/**
 * Embeds the pending documents: a batch claimed (so processes sharing the database share the work), the documents'
 * current text read, cut into passages and embedded, and the vectors written with the documents' states in one
 * transaction. A document whose text changed meanwhile stays pending for its new text; a batch the embedder
 * refuses is marked failed with the reason.
 */
export class EmbeddingJob {
  constructor(private readonly deps: EmbeddingJobDeps) {}

  /** One batch; the number of documents it took (0: nothing pending). */
  async runOnce(signal: AbortSignal): Promise<number> {
    const claimed = await this.deps.states.claim(this.deps.batchSize, this.deps.claimMs);
    const groups = new Map<string, ClaimedDocument[]>();
    for (const c of claimed) {
      const group = groups.get(groupKey(c));
      if (group) group.push(c);
      else groups.set(groupKey(c), [c]);
    }
    for (const group of groups.values()) await this.embedGroup(group, signal);
    return claimed.length;
  }

  private async embedGroup(group: ClaimedDocument[], signal: AbortSignal): Promise<void> {
    const { siteId, locale, modelKey } = group[0]!;
    const { states, vectors } = this.deps;
    const site = this.deps.documents.site(siteId);
    const ids = group.map((c) => c.docId);
    if (!site) {
      await states.forgetSite(siteId);
      return;
    }
    try {
      const settings = this.deps.settings(siteId);
      const texts = await this.deps.documents.texts(site, locale, ids, settings);
      const cut = texts.map((t) => ({ ...t, passages: passages(t.text, settings) }));
      const embedder = await this.deps.embedders.of(siteId, locale, modelKey);
      const flat = await embedder.embedPassages(
        cut.flatMap((d) => d.passages),
        signal,
      );
      let at = 0;
      const made = cut.map((d) => {
        const docVectors = flat.slice(at, at + d.passages.length).filter((v): v is Float32Array => v !== null);
        at += d.passages.length;
        return { docId: d.docId, textHash: d.hash, vectors: docVectors };
      });
      const found = new Set(made.map((d) => d.docId));
      const gone = ids.filter((id) => !found.has(id));
      await this.deps.db.transaction(async (trx) => {
        const done = new Set(
          await states.markDone(
            siteId,
            locale,
            modelKey,
            made.map((d) => ({ docId: d.docId, textHash: d.textHash, passages: d.vectors.length })),
            trx,
          ),
        );
        await vectors.write(
          siteId,
          locale,
          modelKey,
          made.filter((d) => done.has(d.docId)),
          trx,
        );
      });
      // Claimed but no longer stored: deleted since; the change feed removes their vectors.
      if (gone.length > 0) await states.remove(siteId, locale, gone, modelKey);
    } catch (error) {
      if (signal.aborted) {
        await states.release(siteId, locale, modelKey, ids);
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn(
        { site: siteId, locale, model: modelKey, documents: ids.length, reason },
        'embedding failed',
      );
      await states.markFailed(
        siteId,
        locale,
        modelKey,
        group.map((c) => ({ docId: c.docId, textHash: c.textHash, reason })),
      );
    }
  }
}
