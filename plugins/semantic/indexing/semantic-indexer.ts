import type { IndexedChanges, SearchSite, SearchSites, VectorStatus } from '@vela/plugin-search/api';
import type { Logger } from 'vela/plugin';
import type { EmbedderCache } from '../embedders/embedder-cache.js';
import type { IndexScope, VectorIndexes } from '../retrieval/vector-indexes.js';
import type { EmbeddingStates } from '../store/embedding-states.js';
import type { ModelInfo, ModelStore } from '../store/model-store.js';
import { BUILTIN_EMBEDDER, type SemanticSettings } from '../store/settings-store.js';
import type { VectorStore } from '../store/vector-store.js';
import type { EmbeddingJob } from './embedding-job.js';
import type { ModelPlanner } from './model-planner.js';
import type { SiteDocuments } from './site-documents.js';

export interface SemanticIndexerDeps {
  sites: () => SearchSites;
  settings: (siteId: string) => SemanticSettings;
  documents: SiteDocuments;
  planner: ModelPlanner;
  job: EmbeddingJob;
  models: ModelStore;
  states: EmbeddingStates;
  vectors: VectorStore;
  embedders: EmbedderCache;
  /** The in-memory indexes; null when vectors are searched in SQL (the PostgreSQL engine). */
  indexes: VectorIndexes | null;
  logger: Logger;
  pollMs: number;
}

/** What the retriever needs of a site and locale: whether it can search, and with which model. */
export interface ScopeStatus {
  status: VectorStatus;
  active: ModelInfo | null;
}

/** Time one step spends embedding before it looks at the notices again. */
const EMBED_BUDGET_MS = 2000;
/** A site whose documents changed this recently is still being imported: its built-in model waits. */
const SETTLE_MS = 3000;
/** The pause between steps while an import settles. */
const SOON_MS = 200;
/** Snapshots of changed vector indexes are written at most this often. */
const SNAPSHOT_MS = 30_000;

const scopeOf = (siteId: string, locale: string) => `${siteId}\u0001${locale}`;

/**
 * The embedding work of this process, one step at a time off the request path: the models each enabled site
 * needs (planned, learned, activated once complete), the search plugin's index changes turned into pending
 * documents (or removed vectors), a site made pending whole when its model is new or its index was rebuilt, the
 * pending documents embedded a batch at a time, and the in-memory indexes kept up with every process's vectors.
 */
export class SemanticIndexer {
  private notices: IndexedChanges[] = [];
  /** When each site and locale last had documents change. */
  private readonly changedAt = new Map<string, number>();
  /** Each site and locale's number of documents, as of its last change (an index notice drops it). */
  private readonly documentCounts = new Map<string, number>();
  private readonly backfill = new Set<string>();
  private readonly statuses = new Map<string, ScopeStatus>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private lastSnapshot = 0;

  constructor(private readonly deps: SemanticIndexerDeps) {}

  statusOf(siteId: string, locale: string): ScopeStatus {
    const known = this.statuses.get(scopeOf(siteId, locale));
    if (known) return known;
    const off = !this.deps.settings(siteId).enabled;
    const name = this.deps.sites().find(siteId)?.name ?? siteId;
    return {
      status: {
        ready: false,
        reason: off ? `semantic search is off for site "${name}"` : 'semantic search is starting',
      },
      active: null,
    };
  }

  /** The search plugin applied index changes (a tap of `search.indexed`): kept for the next step. */
  onIndexed(change: IndexedChanges): void {
    if (!this.concerns(change.siteId)) return;
    this.notices.push(change);
    const scope = scopeOf(change.siteId, change.locale);
    this.changedAt.set(scope, performance.now());
    this.documentCounts.delete(scope);
    this.kick();
  }

  /** Whether the site has or had semantic search: a site that never had it leaves no vectors to follow. */
  private concerns(siteId: string): boolean {
    const settings = this.deps.settings(siteId);
    return settings.enabled || settings.custom;
  }

  /** A site's settings changed, or an administrator asked: every document of it is looked at again. */
  refreshSite(siteId: string): void {
    const site = this.deps.sites().find(siteId);
    for (const locale of site?.locales ?? []) this.backfill.add(scopeOf(siteId, locale));
    this.kick();
  }

  async forgetSite(siteId: string): Promise<void> {
    for (const map of [this.statuses, this.documentCounts, this.changedAt])
      for (const key of [...map.keys()]) if (key.startsWith(`${siteId}\u0001`)) map.delete(key);
    await this.deps.states.forgetSite(siteId);
    await this.deps.vectors.forgetSite(siteId);
    await this.deps.models.forgetSite(siteId);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.deps.indexes?.start();
    // What changed while no process was running comes in with the search plugin's notices of the indexes it loaded
    // at its start (rebuilt: true), each a look at every document of the site.
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await this.deps.indexes?.saveSnapshots().catch((err: unknown) => this.deps.logger.warn({ err }, 'vector snapshot'));
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), 0);
  }

  private run(): void {
    this.timer = null;
    this.again = false;
    this.running = this.step()
      .catch((err: unknown) => {
        if (!this.stopped) this.deps.logger.warn({ err }, 'semantic indexing step failed');
        return 'idle' as const;
      })
      .then((next) => {
        this.running = null;
        if (this.stopped) return;
        const delay = next === 'now' || this.again ? 0 : next === 'soon' ? SOON_MS : this.deps.pollMs;
        this.timer = setTimeout(() => this.run(), delay);
      });
  }

  /** One step; when the next one is due: at once (work is left), soon (an import is settling), or at the poll. */
  private async step(): Promise<'now' | 'soon' | 'idle'> {
    const sites = this.deps.sites().list();
    if (!sites.some((site) => this.concerns(site.id))) {
      this.notices = [];
      return 'idle';
    }
    const targets = await this.plan();
    await this.applyNotices(targets);
    await this.applyBackfill(targets);
    const indexes = this.deps.indexes;
    if (indexes) await indexes.follow();
    let embedded = 0;
    const until = performance.now() + EMBED_BUDGET_MS;
    while (!this.stopped && performance.now() < until && this.notices.length === 0) {
      const n = await this.deps.job.runOnce(this.abort.signal);
      embedded += n;
      if (n === 0) break;
      if (indexes) await indexes.follow();
    }
    if (indexes && performance.now() - this.lastSnapshot > SNAPSHOT_MS) {
      this.lastSnapshot = performance.now();
      await indexes.saveSnapshots();
    }
    if (embedded > 0 || this.notices.length > 0) return 'now';
    return [...this.changedAt.values()].some((at) => performance.now() - at < SETTLE_MS) ? 'soon' : 'idle';
  }

  /** The model each enabled site and locale embeds into, planned and activated; their statuses updated. */
  private async plan(): Promise<Map<string, ModelInfo>> {
    const targets = new Map<string, ModelInfo>();
    const searched: IndexScope[] = [];
    const models = await this.deps.models.list();
    await this.retire(models);
    for (const site of this.deps.sites().list()) {
      const settings = this.deps.settings(site.id);
      for (const locale of site.locales) {
        const key = scopeOf(site.id, locale);
        if (!settings.enabled) {
          this.statuses.set(key, {
            status: { ready: false, reason: `semantic search is off for site "${site.name}"` },
            active: null,
          });
          continue;
        }
        const plan = await this.planScope(site, locale, settings, models);
        if (plan.target) targets.set(key, plan.target);
        if (plan.created) this.backfill.add(key);
        if (plan.active) searched.push({ siteId: site.id, locale, modelKey: plan.active.modelKey });
        // The index of a model replacing the active one follows its vectors as they come, so searches switch to it
        // without a gap once it is activated.
        if (plan.target && plan.target.modelKey !== plan.active?.modelKey)
          searched.push({ siteId: site.id, locale, modelKey: plan.target.modelKey });
        this.statuses.set(key, await this.statusFor(site, locale, settings, plan.active, plan.reason));
      }
    }
    await this.deps.indexes?.keepOnly(searched);
    this.deps.embedders.keepOnly(new Set([...targets.values(), ...searched].map((m) => m.modelKey)));
    return targets;
  }

  private async planScope(site: SearchSite, locale: string, settings: SemanticSettings, models: ModelInfo[]) {
    // Only the built-in model depends on the number of documents (it is learned again when that doubles or halves).
    const documents = settings.embedder === BUILTIN_EMBEDDER ? await this.documentCount(site, locale) : 0;
    const settling = performance.now() - (this.changedAt.get(scopeOf(site.id, locale)) ?? -Infinity) < SETTLE_MS;
    const plan = await this.deps.planner.plan(site, locale, settings, models, documents, settling);
    const { active, target } = plan;
    const loaded =
      !this.deps.indexes || !!this.deps.indexes.get({ siteId: site.id, locale, modelKey: target?.modelKey ?? '' });
    if (
      active &&
      target &&
      target.modelKey !== active.modelKey &&
      loaded &&
      (await this.complete(site.id, locale, target))
    ) {
      await this.deps.models.activate(site.id, locale, target.modelKey);
      this.deps.logger.info({ site: site.name, locale, model: target.modelKey }, 'embedding model activated');
      return { ...plan, active: target };
    }
    return plan;
  }

  /** The site's number of documents in the locale: searched once after each change, not at every step. */
  private async documentCount(site: SearchSite, locale: string): Promise<number> {
    const scope = scopeOf(site.id, locale);
    let count = this.documentCounts.get(scope);
    if (count === undefined) {
      const changed = this.changedAt.get(scope);
      count = await this.deps.documents.count(site, locale);
      // A change that came during the search may not be counted: then the next step searches again.
      if (this.changedAt.get(scope) === changed) this.documentCounts.set(scope, count);
    }
    return count;
  }

  /** Every document of the site has been embedded with the model (none pending, none held). */
  private async complete(siteId: string, locale: string, model: ModelInfo): Promise<boolean> {
    if (this.backfill.has(scopeOf(siteId, locale))) return false;
    const counts = (await this.deps.states.counts(siteId)).find(
      (c) => c.locale === locale && c.modelKey === model.modelKey,
    );
    return !!counts && counts.pending === 0 && counts.done > 0;
  }

  /** Retired models' vectors and states go. */
  private async retire(models: ModelInfo[]): Promise<void> {
    for (const m of models.filter((x) => x.state === 'retired')) {
      await this.deps.vectors.forgetModel(m.siteId, m.locale, m.modelKey);
      await this.deps.states.forgetModel(m.siteId, m.locale, m.modelKey);
      await this.deps.models.remove(m.siteId, m.locale, m.modelKey);
    }
  }

  private async statusFor(
    site: SearchSite,
    locale: string,
    settings: SemanticSettings,
    active: ModelInfo | null,
    reason: string | undefined,
  ): Promise<ScopeStatus> {
    const notReady = (why: string): ScopeStatus => ({ status: { ready: false, reason: why }, active });
    if (!active) return notReady(reason ?? `site "${site.name}" has no embedding model yet`);
    const scope = { siteId: site.id, locale, modelKey: active.modelKey };
    const held = this.deps.indexes?.get(scope);
    if (this.deps.indexes && !held)
      return notReady(`the vector index of site "${site.name}" (${locale}) is being loaded`);
    const searchable = held ? held.documents > 0 : await this.deps.vectors.hasVectors(site.id, locale, active.modelKey);
    if (!searchable) return notReady(`the documents of site "${site.name}" (${locale}) are being embedded`);
    return { status: { ready: true, rrfK: settings.rrfK, window: settings.window }, active };
  }

  private async applyNotices(targets: Map<string, ModelInfo>): Promise<void> {
    const notices = this.notices;
    this.notices = [];
    for (const notice of notices) {
      const key = scopeOf(notice.siteId, notice.locale);
      if (notice.removed.length > 0) {
        await this.deps.vectors.remove(notice.siteId, notice.locale, notice.removed);
        await this.deps.states.remove(notice.siteId, notice.locale, notice.removed);
      }
      const target = targets.get(key);
      if (!target) continue;
      if (notice.rebuilt) this.backfill.add(key);
      else if (notice.upserted.length > 0 && !this.backfill.has(key))
        await this.markPending(notice.siteId, notice.locale, target, notice.upserted);
    }
  }

  private async applyBackfill(targets: Map<string, ModelInfo>): Promise<void> {
    for (const key of [...this.backfill]) {
      this.backfill.delete(key);
      const target = targets.get(key);
      const [siteId, locale] = key.split('\u0001') as [string, string];
      const site = this.deps.sites().find(siteId);
      if (!target || !site) continue;
      let documents = 0;
      for await (const ids of this.deps.documents.ids(site, locale)) {
        await this.markPending(siteId, locale, target, ids);
        documents += ids.length;
      }
      this.deps.logger.debug(
        { site: site.name, locale, documents, model: target.modelKey },
        'site looked at for embedding',
      );
    }
  }

  private async markPending(siteId: string, locale: string, target: ModelInfo, ids: string[]): Promise<void> {
    const site = this.deps.sites().find(siteId);
    if (!site) return;
    const settings = this.deps.settings(siteId);
    const texts = await this.deps.documents.texts(site, locale, ids, settings);
    await this.deps.states.markPending(
      siteId,
      locale,
      target.modelKey,
      texts.map((t) => ({ docId: t.docId, textHash: t.hash })),
    );
  }
}
