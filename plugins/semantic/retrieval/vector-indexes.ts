import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'vela/plugin';
import type { VectorChange, VectorStore } from '../store/vector-store.js';
import { HeldIndex } from './held-index.js';

export interface IndexScope {
  siteId: string;
  locale: string;
  modelKey: string;
}

const scopeKey = (s: IndexScope) => `${s.siteId}\u0001${s.locale}\u0001${s.modelKey}`;
/** Log rows read per step while following. */
const FOLLOW_PAGE = 2000;

/**
 * The in-memory ANN indexes of the models searched in this process (the memory engine's counterpart): each built
 * from the stored vectors, or restored from its snapshot file, then kept up to date by following the vector log, so
 * what any process embedded is searched by all. Snapshots spare a restart the rebuild.
 */
export class VectorIndexes {
  private readonly held = new Map<string, { scope: IndexScope; index: Promise<HeldIndex> }>();
  private applied = 0;

  constructor(
    private readonly vectors: VectorStore,
    private readonly folder: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.applied = await this.vectors.maxSeq();
  }

  /** The index of a scope once it is loaded; undefined while it loads (and starts loading it). */
  get(scope: IndexScope): HeldIndex | undefined {
    return this.settled.get(scopeKey(scope));
  }

  private readonly settled = new Map<string, HeldIndex>();

  /** Load the index of every scope named, and drop (with their snapshots) those no longer named. */
  async keepOnly(scopes: IndexScope[]): Promise<void> {
    const wanted = new Map(scopes.map((s) => [scopeKey(s), s]));
    for (const [key, { scope }] of this.held)
      if (!wanted.has(key)) {
        this.held.delete(key);
        this.settled.delete(key);
        await rm(this.fileOf(scope), { force: true });
      }
    for (const [key, scope] of wanted)
      if (!this.held.has(key)) {
        const index = this.load(scope);
        this.held.set(key, { scope, index });
        index.then(
          (held) => this.settled.set(key, held),
          (error: unknown) => {
            this.held.delete(key);
            this.logger.warn({ ...scope, err: error }, 'vector index could not be loaded');
          },
        );
      }
    await Promise.allSettled([...this.held.values()].map((h) => h.index));
  }

  /** Apply the vector writes of every process since the last call. */
  async follow(): Promise<number> {
    let applied = 0;
    for (;;) {
      const changes = await this.vectors.changesAfter(this.applied, FOLLOW_PAGE);
      if (changes.length === 0) return applied;
      await this.apply(changes);
      this.applied = changes[changes.length - 1]!.seq;
      applied += changes.length;
    }
  }

  /** Write the snapshot of each index that changed since its last one. */
  async saveSnapshots(): Promise<void> {
    for (const [key, { scope }] of this.held) {
      const held = this.settled.get(key);
      if (!held?.dirty) continue;
      held.dirty = false;
      await mkdir(this.folder, { recursive: true });
      const file = this.fileOf(scope);
      await writeFile(`${file}.tmp`, held.serialize({ ...scope }));
      await rename(`${file}.tmp`, file);
    }
  }

  private async apply(changes: VectorChange[]): Promise<void> {
    const byScope = new Map<string, VectorChange[]>();
    for (const c of changes) {
      const key = scopeKey(c);
      if (!this.settled.has(key)) continue;
      const list = byScope.get(key);
      if (list) list.push(c);
      else byScope.set(key, [c]);
    }
    for (const [key, list] of byScope) await this.applyTo(this.settled.get(key)!, list);
  }

  private async applyTo(held: HeldIndex, changes: VectorChange[]): Promise<void> {
    const fresh = changes.filter((c) => c.seq > held.seq);
    if (fresh.length === 0) return;
    const { siteId, locale, modelKey } = fresh[0]!;
    const latest = new Map<string, boolean>();
    for (const c of fresh) latest.set(c.docId, c.removed);
    const read = await this.vectors.read(
      siteId,
      locale,
      modelKey,
      [...latest].filter(([, removed]) => !removed).map(([id]) => id),
    );
    for (const [docId] of latest) held.put(docId, read.get(docId) ?? []);
    held.seq = fresh[fresh.length - 1]!.seq;
  }

  private async load(scope: IndexScope): Promise<HeldIndex> {
    const restored = await this.restore(scope);
    if (restored) {
      const since = await this.changesOf(scope, restored.seq);
      await this.applyTo(restored, since);
      return restored;
    }
    const started = performance.now();
    const seq = await this.vectors.maxSeq();
    const held = HeldIndex.empty(seq);
    // Passages come in (document, passage) order, a document's possibly across two pages.
    let docId: string | null = null;
    let vectors: Float32Array[] = [];
    for await (const page of this.vectors.scan(scope.siteId, scope.locale, scope.modelKey))
      for (const p of page) {
        if (docId !== p.docId) {
          if (docId !== null) held.put(docId, vectors);
          docId = p.docId;
          vectors = [];
        }
        vectors.push(p.vector);
      }
    if (docId !== null) held.put(docId, vectors);
    await this.applyTo(held, await this.changesOf(scope, seq));
    this.logger.info(
      { ...scope, documents: held.documents, ms: Math.round(performance.now() - started) },
      'vector index built',
    );
    return held;
  }

  private async changesOf(scope: IndexScope, after: number): Promise<VectorChange[]> {
    const out: VectorChange[] = [];
    let seq = after;
    for (;;) {
      const page = await this.vectors.changesAfter(seq, FOLLOW_PAGE);
      if (page.length === 0) return out;
      out.push(...page.filter((c) => scopeKey(c) === scopeKey(scope)));
      seq = page[page.length - 1]!.seq;
    }
  }

  private async restore(scope: IndexScope): Promise<HeldIndex | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.fileOf(scope));
    } catch {
      return null;
    }
    try {
      const { held, meta } = HeldIndex.restore(bytes);
      if (scopeKey(meta as unknown as IndexScope) !== scopeKey(scope)) return null;
      // A log pruned past the snapshot cannot bring it up to date: build it from the stored vectors instead.
      return held;
    } catch (error) {
      this.logger.warn({ ...scope, err: error }, 'vector index snapshot unreadable: built from the stored vectors');
      return null;
    }
  }

  private fileOf(scope: IndexScope): string {
    const name = createHash('sha256').update(scopeKey(scope)).digest('hex').slice(0, 24);
    return path.join(this.folder, `${name}.vsi`);
  }
}
