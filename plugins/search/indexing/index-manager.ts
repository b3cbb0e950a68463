import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'vela/plugin';
import type { IndexedChanges } from '../api.js';
import type {
  EngineSchema,
  EngineScope,
  IndexableDocument,
  SearchEngine,
  SearchEngineFactory,
} from '../engine/search-engine.js';
import { type Attributes, engineSchemaFor, toIndexable } from '../query/indexable.js';
import type { ChangeRow, DocumentStore } from '../store/document-store.js';
import type { SiteStore } from '../store/site-store.js';
import type { SiteConfig } from '../store/site-types.js';
import type { AcceptedChange } from './import-items.js';
import { PreparedDocuments } from './prepared-documents.js';
import { SerialQueue } from './serial-queue.js';
import type { SnapshotFiles, SnapshotManifest } from './snapshot-files.js';

interface EngineEntry {
  siteId: string;
  locale: string;
  indexKey: string;
  engine: SearchEngine;
}

export interface IndexManagerOptions {
  /** Changes read per step of the indexer. */
  batchSize: number;
  /** How often to look for changes written by other processes (PostgreSQL mode); 0 turns polling off. */
  pollMs: number;
  /** Quiet time after the last applied change before a snapshot is written; 0 turns snapshots off. */
  snapshotDelayMs: number;
}

const engineKey = (siteId: string, locale: string) => `${siteId}:${locale}`;
const scopeOf = (config: SiteConfig, locale: string): EngineScope => ({
  siteId: config.site.id,
  locale,
  indexKey: indexKeyOf(config),
});
/** Who hears what each step changed (the search.indexed hook): asked first whether anyone listens. */
export interface IndexedListeners {
  isUsed(): boolean;
  call(changes: IndexedChanges): void;
}

/** Documents of one indexer step up to which their versions go into the page cache as they are indexed. */
const PRIME_PAGE_CACHE_MAX = 100;
/**
 * Documents given to the engine at once within a step (see applyChanges): about 20 ms of the main thread. Each
 * statement of the next batch's write waits for a turn of the event loop before it is sent, so a longer slice
 * stalls SQLite, and then the main thread waits for the commit: 1,000 left it idle for 0.5 to 0.7 s of a
 * corpus import, 250 for 0.2 s (docs/BENCHMARKS.md).
 */
const UPSERT_SLICE = 250;
/** Documents analysed between two turns of the event loop while a batch is written (see prepare). */
const PREPARE_SLICE = 500;
/** Changes read from the log at once, at least a step's (see applyPending). */
const READ_AHEAD = 20_000;

/**
 * indexKeyOf per configuration object (the site store replaces the object on every change): a search asks it each time.
 */
const indexKeys = new WeakMap<SiteConfig, string>();
function cachedIndexKey(config: SiteConfig): string {
  let key = indexKeys.get(config);
  if (key === undefined) {
    key = indexKeyOf(config);
    indexKeys.set(config, key);
  }
  return key;
}

/** What decides an engine's content beyond the documents: columns, which fields feed the text and their weights. */
export function indexKeyOf(config: SiteConfig): string {
  const schema = engineSchemaFor(config);
  const fields = config.fields.map((f) => [f.name, f.type, f.enabled, f.multiValued, f.boost]).sort();
  return JSON.stringify({ schema, fields, title: config.site.defaultTitleField, b: config.site.bm25B });
}

/**
 * Keeps one engine per site and locale in step with the document store: applies the change log in
 * order (one step at a time), rebuilds an engine when its site's fields change, and snapshots the
 * engines so a restart loads them instead of re-indexing.
 */
export class IndexManager {
  private readonly engines = new Map<string, EngineEntry>();
  private readonly queue = new SerialQueue();
  private applied = 0;
  private draining = false;
  private drainAgain = false;
  private snapshotTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private dirty = false;
  private readonly waiters: Array<{ seq: number; resolve: () => void; reject: (error: Error) => void }> = [];
  private stopped = false;
  private readonly prepared = new PreparedDocuments();
  private readonly changeListeners: Array<(siteId: string | null) => void> = [];

  constructor(
    private readonly sites: SiteStore,
    private readonly docs: DocumentStore,
    private readonly factory: SearchEngineFactory,
    private readonly snapshots: SnapshotFiles,
    private readonly logger: Logger,
    private readonly options: IndexManagerOptions,
    private readonly indexed?: IndexedListeners,
  ) {}

  get appliedSeq(): number {
    return this.applied;
  }

  /** Called whenever what a site's searches find may have changed (null: every site's). */
  onIndexChange(listener: (siteId: string | null) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(siteId: string | null): void {
    for (const listener of this.changeListeners) listener(siteId);
  }

  /**
   * Tells the search.indexed taps what a step, rebuild or drop changed; built only when someone listens. A tap
   * that throws is logged: what it keeps is its own business, the index goes on.
   */
  private tellIndexed(changes: () => IndexedChanges): void {
    if (!this.indexed?.isUsed()) return;
    const told = changes();
    try {
      this.indexed.call(told);
    } catch (error) {
      this.logger.error(
        { err: error, siteId: told.siteId, locale: told.locale },
        'a search.indexed tap failed; indexing goes on',
      );
    }
  }

  /** The whole index of a site and locale was built, restored, opened or dropped. */
  private tellRebuilt(siteId: string, locale: string): void {
    this.tellIndexed(() => ({ siteId, locale, upserted: [], removed: [], rebuilt: true }));
  }

  /**
   * The engine of a site and locale built for exactly `config`'s fields, or null while it is still the engine of
   * an earlier configuration (a field change another process made reached the site store before the rebuild it
   * calls for ran): a search planned with `config` would name columns that engine lacks. `settle` waits for it.
   */
  engineFor(config: SiteConfig, locale: string): SearchEngine | null {
    const key = engineKey(config.site.id, locale);
    // A locale without an engine yet gets an empty one, made for the store's configuration (maybe newer than `config`).
    if (!this.engines.has(key)) this.engine(config.site.id, locale);
    const entry = this.engines.get(key)!;
    return entry.indexKey === cachedIndexKey(config) ? entry.engine : null;
  }

  /** Resolves once a site's engines match its configuration in the site store (rebuilt if they did not). */
  settle(siteId: string): Promise<void> {
    return this.queue.run(() => this.reconcileSite(siteId));
  }

  /** The engine of a site and locale (empty when it has no documents yet). */
  engine(siteId: string, locale: string): SearchEngine {
    const entry = this.engines.get(engineKey(siteId, locale));
    if (entry) return entry.engine;
    const config = this.sites.get(siteId);
    return this.install(config, locale, this.factory.create(engineSchemaFor(config), scopeOf(config, locale))).engine;
  }

  async start(): Promise<void> {
    await this.queue.run(async () => {
      const maxSeq = await this.docs.maxSeq();
      // Engines kept in the database are their own snapshot (load opens them).
      const manifest = this.factory.persistent ? null : await this.snapshots.readManifest();
      const usable =
        manifest && manifest.seq <= maxSeq && (await this.docs.holdsChangesAfter(manifest.seq)) ? manifest : null;
      if (manifest && !usable)
        this.logger.warn(
          { snapshotSeq: manifest.seq, maxSeq },
          'index snapshots do not match the document store; rebuilding',
        );
      await this.load(usable, maxSeq);
      this.logger.info(
        { engines: this.engines.size, fromSeq: this.applied, snapshot: usable ? usable.seq : null },
        'search indexes loaded',
      );
    });
    await this.drain();
    this.sites.onChange((change) =>
      this.queue.run(() =>
        change.kind === 'site-deleted' ? this.dropSite(change.siteId) : this.reconcileSite(change.siteId),
      ),
    );
    if (this.options.pollMs > 0) {
      this.pollTimer = setInterval(() => this.kick(), this.options.pollMs);
      this.pollTimer.unref();
    }
  }

  /**
   * Apply every change written so far; safe to call often (calls while running coalesce). Never rejects,
   * so callers may leave it running (after an import, at each poll; the connector does too): a failed
   * step (a database error, say) is logged and retried by the next call, and whoever waits for a change
   * gets the error.
   */
  async drain(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return this.queue.idle();
    }
    this.draining = true;
    try {
      do {
        this.drainAgain = false;
        await this.queue.run(() => this.applyPending());
      } while (this.drainAgain && !this.stopped);
    } catch (error) {
      this.logger.error(
        { err: error, appliedSeq: this.applied },
        'search indexer step failed; the next import or poll retries it',
      );
      for (const waiter of this.waiters.splice(0)) waiter.reject(error as Error);
    } finally {
      this.draining = false;
    }
  }

  /** Start applying the changes written so far without waiting for it. */
  kick(): void {
    void this.drain();
  }

  /** Resolves once every change up to `seq` is searchable; rejects when the indexer step fails. */
  waitFor(seq: number): Promise<void> {
    if (this.applied >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /**
   * Analyses a batch's documents for the index (`toIndexable`) while the batch is being written (`written`):
   * SQLite writes on its own threads, and the main thread, which otherwise waited for the commit with nothing
   * to index, does the part of the indexer's work that needs no commit. The engine takes nothing before the
   * commit: the indexer still applies the batch from the change log, using what was prepared for exactly the
   * versions it applies (PreparedDocuments). Stops when the write ends, so the answer is not held up; what
   * was not prepared by then is analysed by the indexer, as before. Only for engines already running (no
   * engine is made here), and never throws: a document `toIndexable` refuses is left to the indexer to log.
   */
  async prepare(changes: readonly AcceptedChange[], written: Promise<unknown>): Promise<void> {
    let ended = false;
    const end = () => {
      ended = true;
    };
    written.then(end, end);
    for (let i = 0; i < changes.length; i++) {
      if (i % PREPARE_SLICE === 0) {
        // The write's statements are sent between slices (each waits for the main thread).
        await nextTurn();
        if (ended) return;
      }
      const change = changes[i]!;
      if (change.action === 'CREATE' && change.attributes && change.docId !== null)
        this.prepareOne(change.siteId, change.locale, change.docId, change.attributes);
    }
  }

  private prepareOne(siteId: string, locale: string, id: string, attributes: Attributes): void {
    const config = this.sites.find(siteId);
    const entry = this.engines.get(engineKey(siteId, locale));
    if (!config || !entry) return;
    const schema = entry.engine.schema;
    try {
      this.prepared.put(attributes, {
        id,
        config,
        schema,
        locale,
        indexable: toIndexable(id, attributes, config, schema, locale),
      });
    } catch {
      // The indexer analyses it again, and logs why it is left out.
    }
  }

  /** Changes accepted but not yet applied, per locale of a site. */
  async queueSizes(siteId: string): Promise<Record<string, number>> {
    const pending = await this.docs.pendingCounts(this.applied);
    const { site } = this.sites.get(siteId);
    return Object.fromEntries(site.locales.map((l) => [l, pending.get(engineKey(siteId, l)) ?? 0]));
  }

  async snapshot(): Promise<void> {
    await this.queue.run(async () => {
      // Only the lease holder writes the folder and prunes the log (a worker that is not the owner, or a
      // retiring one whose replacement took over): nor does anyone else spend the export.
      if (!this.dirty || !(await this.snapshots.mayWrite())) return;
      if (this.factory.persistent) {
        // The stored indexes hold every change up to `applied` (markApplied): a process behind them
        // reopens them rather than re-indexing when it finds the log pruned.
        await this.docs.pruneChanges(this.applied);
        this.dirty = false;
        return;
      }
      const engines = [];
      for (const entry of this.engines.values())
        engines.push({
          siteId: entry.siteId,
          locale: entry.locale,
          indexKey: entry.indexKey,
          data: await entry.engine.exportSnapshot(),
        });
      await this.snapshots.write(engines, this.applied);
      await this.docs.pruneChanges(this.applied);
      this.dirty = false;
      this.logger.info({ engines: engines.length, seq: this.applied }, 'search index snapshot written');
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    await this.queue.idle();
    if (this.options.snapshotDelayMs > 0) await this.snapshot();
    await this.snapshots.release();
  }

  /**
   * Every engine from the snapshot when there is one, else rebuilt from the stored documents, with
   * `applied` at the snapshot's seq or at `maxSeq`, read before the documents: every change up to it
   * committed before the scan, so the rebuilt engines hold it.
   */
  private async load(manifest: SnapshotManifest | null, maxSeq: number): Promise<void> {
    this.applied = manifest ? manifest.seq : maxSeq;
    // Changes that were never applied one by one (pruned, or before the snapshot) invalidated nothing.
    this.docs.pages.clear();
    this.changed(null);
    if (this.factory.persistent) return this.loadStored(maxSeq);
    for (const site of this.sites.list()) {
      const config = this.sites.get(site.id);
      for (const locale of site.locales) {
        const saved = manifest?.engines.find((e) => e.siteId === site.id && e.locale === locale);
        const restored = saved && saved.indexKey === indexKeyOf(config) ? await this.restore(saved.file) : null;
        if (restored) {
          this.install(config, locale, restored);
          this.tellRebuilt(site.id, locale);
        } else await this.rebuildLocale(config, locale);
      }
    }
  }

  /**
   * Engines kept in the database: each stored index complete up to a seq the change log still holds after
   * is opened as it is (the replay from the lowest such seq is idempotent); any other is re-indexed in place.
   */
  private async loadStored(maxSeq: number): Promise<void> {
    const persistent = this.factory.persistent!;
    for (const entry of this.engines.values()) disposeEngine(entry.engine);
    this.engines.clear();
    let from = maxSeq;
    for (const site of this.sites.list()) {
      const config = this.sites.get(site.id);
      for (const locale of site.locales) {
        const opened = await persistent.open(scopeOf(config, locale), engineSchemaFor(config));
        if (opened && opened.appliedSeq <= maxSeq && (await this.docs.holdsChangesAfter(opened.appliedSeq))) {
          this.install(config, locale, opened.engine);
          this.tellRebuilt(site.id, locale);
          from = Math.min(from, opened.appliedSeq);
        } else {
          if (opened) disposeEngine(opened.engine);
          await this.rebuildLocale(config, locale);
        }
      }
    }
    this.applied = from;
    await persistent.markApplied(this.allEngines(), this.applied);
  }

  private allEngines(): SearchEngine[] {
    return [...this.engines.values()].map((entry) => entry.engine);
  }

  /**
   * Applies the log from `applied` on, a step (`batchSize` changes) at a time. The changes are read several steps
   * at once, and the next read is sent before the steps are applied: the import profile had the indexer idle for
   * a third of an import, its read of each step queued behind the next batch's write (SQLite has one connection)
   * while nothing else could run. Now the read of a whole batch usually goes before the next write.
   */
  private async applyPending(): Promise<void> {
    let appliedAny = false;
    let next = this.readChanges(this.applied);
    for (;;) {
      const read = await next;
      if (read.length === 0) break;
      // A hole right after `applied` is normally a rolled-back seq; but another process sharing the
      // database may have pruned changes this one had not read yet (its snapshot was ahead). Then
      // only the stored documents tell what they were.
      if (read[0]!.seq > this.applied + 1 && !(await this.docs.holdsChangesAfter(this.applied))) {
        this.logger.warn(
          { appliedSeq: this.applied, nextSeq: read[0]!.seq },
          'changes not yet applied were pruned by another process; rebuilding',
        );
        await this.load(null, await this.docs.maxSeq());
        next = this.readChanges(this.applied);
        this.stepDone();
        appliedAny = true;
        await nextTurn();
        continue;
      }
      // What the next turn reads once these are applied.
      next = this.readChanges(read[read.length - 1]!.seq);
      for (let from = 0; from < read.length; from += this.options.batchSize) {
        const changes = read.slice(from, from + this.options.batchSize);
        await this.applyChanges(changes);
        this.applied = changes[changes.length - 1]!.seq;
        await this.factory.persistent?.markApplied(this.allEngines(), this.applied);
        this.stepDone();
        appliedAny = true;
        // Let searches in between steps of a large import.
        await nextTurn();
      }
    }
    // Only new changes restart the quiet period: an idle poll must not keep postponing the snapshot.
    if (appliedAny) this.scheduleSnapshot();
  }

  /** After a step: its versions leave the hand-off cache, and whoever waited for its changes is answered. */
  private stepDone(): void {
    this.docs.forgetUpTo(this.applied);
    this.dirty = true;
    this.release();
  }

  /**
   * The next changes after `seq`, up to several steps of them, read at once; a failure surfaces where the read
   * is awaited, never as an unhandled rejection.
   */
  private readChanges(seq: number): Promise<ChangeRow[]> {
    const read = this.docs.changesAfter(seq, Math.max(this.options.batchSize, READ_AHEAD));
    read.catch(() => {});
    return read;
  }

  private async applyChanges(changes: ChangeRow[]): Promise<void> {
    // Every version read here is current as of the batch's last change at least: an engine shared with
    // other processes keeps it only if none of them wrote a later one (engine/search-engine.ts, upsert).
    const version = changes[changes.length - 1]!.seq;
    for (const scope of latestByScope(changes)) {
      const config = this.sites.find(scope.siteId);
      if (!config?.site.locales.includes(scope.locale)) continue;
      await this.applyScope(config, scope, version);
    }
  }

  private async applyScope(
    config: SiteConfig,
    { siteId, locale, latest }: ScopeChanges,
    version: number,
  ): Promise<void> {
    const entry =
      this.engines.get(engineKey(siteId, locale)) ??
      this.install(config, locale, this.factory.create(engineSchemaFor(config), scopeOf(config, locale)));
    // The stored document is the truth: a CREATE applies its current version, or removes it when
    // a later change deleted it; so replaying a change twice does no harm.
    const current = await this.docs.currentVersions(siteId, locale, latest);
    const generation = this.docs.pages.currentGeneration();
    const schema = entry.engine.schema;
    const upserts: IndexableDocument[] = [];
    const removals: string[] = [];
    // Only a few documents prime the page cache (below): a bulk step keeps no map of them.
    const indexed = current.size <= PRIME_PAGE_CACHE_MAX ? new Map<string, Attributes>() : null;
    for (const [id, attributes] of current) {
      const indexable = attributes
        ? (this.prepared.take(id, attributes, config, schema, locale) ??
          this.indexable(id, attributes, config, schema, locale))
        : null;
      if (indexable) {
        upserts.push(indexable);
        indexed?.set(id, attributes!);
      } else removals.push(id);
    }
    try {
      // Removing an id the engine does not hold is a no-op (and asking first would cost a round trip each).
      if (removals.length > 0) await entry.engine.remove(removals, version);
      for (let from = 0; from < upserts.length; from += UPSERT_SLICE) {
        // Other work runs in between: the next import's request is read and its write started, and that
        // write's statements are sent, while this step is indexed (the whole step at once kept the main
        // thread from them, then left it idle while SQLite wrote the next batch).
        if (from > 0) await nextTurn();
        await entry.engine.upsert(
          upserts.length <= UPSERT_SLICE ? upserts : upserts.slice(from, from + UPSERT_SLICE),
          version,
        );
      }
    } finally {
      // Also after a failure part way: the engine may hold part of the step, and searches between its slices saw less.
      this.changed(siteId);
    }
    this.tellIndexed(() => ({
      siteId,
      locale,
      upserted: upserts.map((document) => document.id),
      removed: removals,
      rebuilt: false,
    }));
    // A few documents at a time is an edit someone is about to search for: their page needs no database
    // read (exactly the versions just indexed). A bulk import would only push the hot pages out.
    if (indexed && indexed.size > 0) this.docs.pages.fill(siteId, locale, indexed, generation);
  }

  /** A stored document the index cannot take is left out (and logged) rather than stopping the indexer. */
  private indexable(
    id: string,
    attributes: Attributes,
    config: SiteConfig,
    schema: EngineSchema,
    locale: string,
  ): IndexableDocument | null {
    try {
      return toIndexable(id, attributes, config, schema, locale);
    } catch (error) {
      this.logger.error(
        { err: error, site: config.site.name, locale, docId: id },
        'stored document left out of the index',
      );
      return null;
    }
  }

  private install(config: SiteConfig, locale: string, engine: SearchEngine): EngineEntry {
    const entry = { siteId: config.site.id, locale, indexKey: cachedIndexKey(config), engine };
    const previous = this.engines.get(engineKey(config.site.id, locale));
    if (previous && previous.engine !== engine) disposeEngine(previous.engine);
    this.engines.set(engineKey(config.site.id, locale), entry);
    this.changed(config.site.id);
    return entry;
  }

  private async restore(file: string): Promise<SearchEngine | null> {
    const data = await this.snapshots.read(file);
    if (!data) return null;
    try {
      return await this.factory.restore(data);
    } catch (error) {
      this.logger.warn({ file, err: error }, 'index snapshot unreadable; rebuilding from the document store');
      return null;
    }
  }

  /**
   * Build a fresh engine from the stored documents, then swap it in. An engine kept in the database is the
   * scope's stored index, brought in line in place: every stored document upserted (unchanged rows are not
   * rewritten), then every other one removed; indexes of the locale's earlier field configurations dropped.
   */
  private async rebuildLocale(config: SiteConfig, locale: string): Promise<void> {
    const schema = engineSchemaFor(config);
    const scope = scopeOf(config, locale);
    const persistent = this.factory.persistent;
    if (persistent) {
      // The process that changed the fields has usually built this index already: it holds every change this
      // process applied (and more), so it is opened as it is; later changes replay onto it harmlessly.
      const stored = await persistent.open(scope, schema);
      if (stored && stored.appliedSeq >= this.applied) {
        this.install(config, locale, stored.engine);
        this.tellRebuilt(config.site.id, locale);
        return;
      }
      if (stored) disposeEngine(stored.engine);
    }
    // The scan below reads every change up to this seq (the log is commit-ordered): the version of what it reads.
    const version = persistent ? await this.docs.maxSeq() : undefined;
    const engine = this.factory.create(schema, scope);
    const seen = new Set<string>();
    let count = 0;
    for await (const page of this.docs.scan(config.site.id, locale)) {
      const indexables = page
        .map((d) => this.indexable(d.id, d.attributes, config, schema, locale))
        .filter((d) => d !== null);
      await engine.upsert(indexables, version);
      if (persistent) for (const indexable of indexables) seen.add(indexable.id);
      count += indexables.length;
      await nextTurn();
    }
    if (persistent) {
      await persistent.retainOnly(engine, seen, version);
      await persistent.drop(config.site.id, locale, scope);
      // Complete up to `version`: another process may now open it instead of building it again.
      await persistent.markApplied([engine], version!);
    }
    this.install(config, locale, engine);
    this.dirty = true;
    this.tellRebuilt(config.site.id, locale);
    if (count > 0) this.logger.info({ site: config.site.name, locale, documents: count }, 'search index rebuilt');
  }

  /** After a site's fields or locales changed: rebuild engines whose content depends on them. */
  private async reconcileSite(siteId: string): Promise<void> {
    const config = this.sites.find(siteId);
    if (!config) return this.dropSite(siteId);
    const key = cachedIndexKey(config);
    for (const [k, entry] of this.engines) {
      if (entry.siteId === siteId && !config.site.locales.includes(entry.locale)) {
        this.engines.delete(k);
        disposeEngine(entry.engine);
        await this.factory.persistent?.drop(siteId, entry.locale);
        await this.snapshots.remove(siteId, entry.locale);
        this.dirty = true;
        this.changed(siteId);
        this.tellRebuilt(siteId, entry.locale);
      }
    }
    for (const locale of config.site.locales) {
      const entry = this.engines.get(engineKey(siteId, locale));
      if (!entry || entry.indexKey !== key) await this.rebuildLocale(config, locale);
    }
    this.scheduleSnapshot();
  }

  private async dropSite(siteId: string): Promise<void> {
    const dropped: string[] = [];
    for (const [k, entry] of this.engines) {
      if (entry.siteId !== siteId) continue;
      this.engines.delete(k);
      disposeEngine(entry.engine);
      await this.snapshots.remove(siteId, entry.locale);
      dropped.push(entry.locale);
    }
    await this.factory.persistent?.drop(siteId);
    this.dirty = true;
    this.changed(siteId);
    for (const locale of dropped) this.tellRebuilt(siteId, locale);
    this.scheduleSnapshot();
  }

  private release(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.seq <= this.applied) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }

  private scheduleSnapshot(): void {
    if (this.options.snapshotDelayMs <= 0 || !this.dirty || this.stopped) return;
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = null;
      this.snapshot().catch((error: Error) => this.logger.error({ err: error }, 'index snapshot failed'));
    }, this.options.snapshotDelayMs);
    this.snapshotTimer.unref();
  }
}

/** An engine that holds timers (the PostgreSQL one) lets them go once it is replaced. */
function disposeEngine(engine: SearchEngine): void {
  engine.dispose?.();
}

/** A step's changes of one site and locale: each document's id with the seq of its last change. */
interface ScopeChanges {
  siteId: string;
  locale: string;
  latest: Map<string, number>;
}

/** The step's changes by site and locale, in the order the scopes first come (most steps are of one). */
function latestByScope(changes: ChangeRow[]): ScopeChanges[] {
  const scopes = new Map<string, ScopeChanges>();
  let scope: ScopeChanges | undefined;
  for (const change of changes) {
    // The key is built only where the scope changes: a string per change was a visible cost of a bulk step.
    if (!scope || change.site_id !== scope.siteId || change.locale !== scope.locale) {
      const k = engineKey(change.site_id, change.locale);
      scope = scopes.get(k);
      if (!scope) {
        scope = { siteId: change.site_id, locale: change.locale, latest: new Map() };
        scopes.set(k, scope);
      }
    }
    scope.latest.set(change.doc_id, change.seq);
  }
  return [...scopes.values()];
}
