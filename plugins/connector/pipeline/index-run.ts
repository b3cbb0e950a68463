import { randomUUID } from 'node:crypto';
import { excerpt, type Logger, type OutboundFetch } from 'vela/plugin';
import type { ExtractedContent, ExtractInput } from '../api.js';
import {
  emptyCounts,
  type RunCounts,
  type RunOperation,
  type RunStats,
  type RunStore,
  type RunTrigger,
} from '../monitoring/run-store.js';
import { ignoreMatcher } from '../rules/ignore-rules.js';
import type { RuleStore } from '../rules/rule-store.js';
import type { JobItem, SearchTarget } from '../search-target/search-target.js';
import { isReadError } from '../sources/read-error.js';
import type { SourceKindRegistry } from '../sources/source-kind-registry.js';
import type { Source } from '../sources/source-store.js';
import { documentChecksum } from './checksum.js';
import { RunProgress } from './run-progress.js';
import type { DocumentStatus, RecordedState, StatusStore, StatusUpdate } from './status-store.js';

/** The longest document id the status table and the search service take. */
const MAX_DOCUMENT_ID = 400;

export interface RunRequest {
  source: Source;
  operation: RunOperation;
  trigger: RunTrigger;
  /** INDEX_IDS / REINDEX_IDS: just these documents. */
  ids?: string[];
}

export interface RunDependencies {
  kinds: SourceKindRegistry;
  statuses: StatusStore;
  runs: RunStore;
  rules: RuleStore;
  target: SearchTarget;
  extract(input: ExtractInput): Promise<ExtractedContent>;
  fetch: OutboundFetch;
  logger: Logger;
  batchSize: number;
  /** How often a run logs its progress (default PROGRESS_EVERY_MS). */
  progressMs?: number;
}

interface Pending {
  item: JobItem;
  /** The record written once the search service accepted the item; null: nothing to record. */
  update: StatusUpdate | null;
}

/** Marks a failure of the search service itself: the batch is recorded, and the run stops. */
class TargetFailure extends Error {}

/** Notes a run keeps from its source, and the characters of each. */
const MAX_NOTES = 20;
const MAX_NOTE_CHARACTERS = 1000;

const DELETE_ATTRIBUTES = (id: string, kind: string) => ({ id, source_apps: kind });

/**
 * One run of one source: read → IGNORE rules → checksum → compare with the status records → send
 * new and changed documents in batches → record statuses; then, after a complete run without
 * errors, de-index what vanished. A record says INDEXED only once the search service accepted it.
 */
export class IndexRun {
  readonly id = randomUUID();
  private readonly counts: RunCounts = emptyCounts();
  private buffer: Pending[] = [];
  private lastSend: Promise<unknown> = Promise.resolve();
  private recording: Promise<void> = Promise.resolve();
  /** Set when the search service did not answer a batch: the run stops at the next flush. */
  private failure: TargetFailure | null = null;
  private unsent: StatusUpdate[] = [];
  /** The source's notes about the run (ctx.note), each once. */
  private readonly notes = new Set<string>();
  private readonly source: Source;
  private readonly provider: string;

  constructor(
    private readonly request: RunRequest,
    private readonly deps: RunDependencies,
    private readonly signal: AbortSignal,
  ) {
    this.source = request.source;
    this.provider = request.source.kind;
  }

  get full(): boolean {
    return this.request.operation === 'INDEX_ALL' || this.request.operation === 'REINDEX_ALL';
  }

  /**
   * `hooks.beforeRun` runs once the run is recorded RUNNING, before it reads (waiting for the source's
   * lease); `hooks.beforeFinish` as it ends, before its statistics say so (a client that sees them may
   * start the next).
   */
  async execute(
    hooks: { beforeRun?: () => Promise<void>; beforeFinish?: () => Promise<void> } = {},
  ): Promise<RunStats> {
    const { runs, logger } = this.deps;
    await runs.begin({
      id: this.id,
      source: this.source.name,
      kind: this.provider,
      operation: this.request.operation,
      trigger: this.request.trigger,
    });
    let status: 'COMPLETED' | 'FAILED' | 'INTERRUPTED' = 'COMPLETED';
    let error: string | null = null;
    try {
      await hooks.beforeRun?.();
      await this.run();
    } catch (caught) {
      // Batches still on their way, and what was only to be recorded, are recorded before the run is closed.
      this.queueRecordOnly();
      await this.recording.catch(() => undefined);
      status = this.signal.aborted ? 'INTERRUPTED' : 'FAILED';
      error = this.signal.aborted ? 'the run was interrupted (the runtime is stopping)' : (caught as Error).message;
      logger.warn(
        { source: this.source.name, run: this.id, err: caught },
        'indexing run did not complete; nothing vanished is de-indexed',
      );
    }
    await hooks.beforeFinish?.();
    await runs.finish(this.id, status, this.counts, error, [...this.notes]);
    const stats = (await runs.get(this.id))!;
    logger.info(
      {
        source: this.source.name,
        run: this.id,
        status,
        ...this.counts,
        durationMs: stats.durationMs,
        documentsPerSecond: stats.documentsPerSecond,
      },
      'indexing run ended',
    );
    return stats;
  }

  private async run(): Promise<void> {
    const { statuses } = this.deps;
    const ids = this.request.ids;
    // Nothing to read: the caller (an unpublish or delete event) says these documents must go.
    if (this.request.operation === 'DEINDEX_IDS') return this.deindexVanished(ids ?? []);
    const reindex = this.request.operation === 'REINDEX_ALL' || this.request.operation === 'REINDEX_IDS';
    // Counted before a reindex forgets the records, which would leave it nothing to count.
    const forgotten = reindex ? await this.deindexTracked(ids) : 0;
    const previous = await statuses.snapshot(this.source.name, ids);
    // Of how many: the ids asked for, or what the source held at its last run (unknown on a first run).
    const progress = new RunProgress(
      this.deps.logger,
      { source: this.source.name, run: this.id },
      ids ? ids.length : Math.max(previous.size, forgotten),
      () => this.counts.documents,
      this.deps.progressMs,
    );
    progress.start();
    try {
      await this.readAndSend(previous, ids);
    } finally {
      progress.stop();
    }
  }

  private async readAndSend(previous: Map<string, RecordedState>, ids: string[] | undefined): Promise<void> {
    const { rules, kinds } = this.deps;
    const kind = kinds.get(this.source.kind);
    const matcher = ignoreMatcher(await rules.list(this.source.name));
    const seen = new Set<string>();
    const reader = kind.read({
      source: { name: this.source.name, locale: this.source.locale, settings: this.source.settings },
      signal: this.signal,
      logger: this.deps.logger.child({ source: this.source.name }),
      extract: this.deps.extract,
      fetch: this.deps.fetch,
      onlyIds: ids,
      note: (message) => {
        // Bounded: a source that notes every document must not grow the run's row without end.
        if (this.notes.size < MAX_NOTES) this.notes.add(excerpt(String(message), MAX_NOTE_CHARACTERS));
      },
    });
    for await (const item of reader) {
      this.checkAborted();
      this.counts.documents += 1;
      if (item.id.length > MAX_DOCUMENT_ID) {
        // Neither the status table nor the search service takes such an id: an error of this document (so the
        // run de-indexes nothing), not of the run.
        this.counts.errors += 1;
        this.deps.logger.warn(
          { source: this.source.name, id: excerpt(item.id, 200) },
          `a document id longer than ${MAX_DOCUMENT_ID} characters is skipped`,
        );
        continue;
      }
      seen.add(item.id);
      if (isReadError(item)) {
        this.counts.errors += 1;
        this.recordOnly({
          objectId: item.id,
          status: 'ERROR',
          checksum: null,
          locale: this.source.locale,
          sites: this.source.sites,
          error: item.error,
        });
        continue;
      }
      const locale = item.locale ?? this.source.locale;
      const attributes = { ...item.attributes, id: item.id };
      const before = previous.get(item.id);
      const rule = matcher.match(attributes);
      if (rule !== null) {
        this.counts.ignored += 1;
        if (before?.status === 'IGNORED') continue;
        const update: StatusUpdate = {
          objectId: item.id,
          status: 'IGNORED',
          checksum: null,
          locale,
          sites: this.source.sites,
          error: null,
        };
        // Only a document the search service may hold needs a DELETE (where it was sent); the rest is just recorded.
        if (before)
          await this.add({
            item: this.deleteItem(item.id, before.locale, JSON.parse(before.sites) as string[]),
            update,
          });
        else this.recordOnly(update);
        continue;
      }
      const checksum = documentChecksum(
        locale,
        this.source.sites,
        item.version === undefined ? attributes : { version: item.version },
      );
      if (before?.status === 'INDEXED' && before.checksum === checksum) {
        this.counts.unchanged += 1;
        continue;
      }
      // The source now sends it to other sites or in another locale: remove it from where it was.
      const stale = before && before.status !== 'IGNORED' ? this.staleTargets(before, locale) : [];
      if (stale.length > 0) await this.add({ item: this.deleteItem(item.id, before!.locale, stale), update: null });
      await this.add({
        item: {
          locale,
          turSNJobAction: 'CREATE',
          siteNames: this.source.sites,
          attributes,
          checksum,
          providerName: this.provider,
        },
        update: { objectId: item.id, status: 'INDEXED', checksum, locale, sites: this.source.sites, error: null },
      });
    }
    this.checkAborted();
    await this.flush(true);
    const vanished = this.full
      ? [...previous.keys()].filter((id) => !seen.has(id))
      : (ids ?? []).filter((id) => previous.has(id) && !seen.has(id));
    if (vanished.length === 0) return;
    if (this.counts.errors > 0) {
      this.deps.logger.warn(
        { source: this.source.name, run: this.id, vanished: vanished.length, errors: this.counts.errors },
        'documents vanished, but the run had errors: they stay indexed until a run without errors',
      );
      return;
    }
    await this.deindexVanished(vanished);
  }

  private checkAborted(): void {
    if (this.signal.aborted)
      throw this.signal.reason instanceof Error ? this.signal.reason : new Error('the run was interrupted');
  }

  /** Sites that held the document's last version and will not get the new one (all of them if the locale changed). */
  private staleTargets(before: RecordedState, locale: string): string[] {
    if (before.locale === locale && before.sites === JSON.stringify(this.source.sites)) return [];
    const sites = JSON.parse(before.sites) as string[];
    return before.locale === locale ? sites.filter((site) => !this.source.sites.includes(site)) : sites;
  }

  private deleteItem(id: string, locale: string, sites: string[]): JobItem {
    return {
      locale,
      turSNJobAction: 'DELETE',
      siteNames: sites,
      attributes: DELETE_ATTRIBUTES(id, this.provider),
      providerName: this.provider,
    };
  }

  private async add(pending: Pending): Promise<void> {
    if (this.buffer.length >= this.deps.batchSize) await this.flush(false);
    this.buffer.push(pending);
  }

  /**
   * Send the buffered items. One batch travels at a time, in order, while the next is read; its
   * statuses are recorded behind it (in order too), so neither reading nor the next send waits for
   * the database. `wait`: send, then wait until it is searchable and every status is recorded.
   */
  private async flush(wait: boolean): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    await this.lastSend;
    if (this.failure) throw this.failure;
    if (batch.length > 0) {
      const outcome = this.deps.target
        .send(
          batch.map((p) => p.item),
          wait,
        )
        .then(
          (refused) => ({ refused }),
          (error: Error) => ({ error }),
        );
      this.lastSend = outcome;
      this.recording = this.recording.then(async () => this.recordOutcome(batch, await outcome));
      // Observed by a later flush or by execute(); never an unhandled rejection meanwhile.
      this.recording.catch(() => undefined);
    }
    if (wait) {
      this.queueRecordOnly();
      await this.settled();
    }
  }

  /** A status to record that needs no call to the search service (a new ignored document, a read error). */
  private recordOnly(update: StatusUpdate): void {
    this.unsent.push(update);
    if (this.unsent.length >= this.deps.batchSize) this.queueRecordOnly();
  }

  /** Record the statuses collected by recordOnly, in order behind the batches. */
  private queueRecordOnly(): void {
    if (this.unsent.length === 0) return;
    const updates = this.unsent;
    this.unsent = [];
    this.recording = this.recording.then(() => this.deps.statuses.record(this.source.name, this.id, updates));
    this.recording.catch(() => undefined);
  }

  /** Every batch sent so far is recorded; rethrows the first failure. */
  private async settled(): Promise<void> {
    await this.recording;
    if (this.failure) throw this.failure;
  }

  /** Record what the search service accepted and refused; a batch it did not answer is all ERROR. */
  private async recordOutcome(
    batch: Pending[],
    outcome: { refused: Map<number, string> } | { error: Error },
  ): Promise<void> {
    const recorded = batch.filter((p): p is Pending & { update: StatusUpdate } => p.update !== null);
    if ('error' in outcome) {
      const message = outcome.error.message;
      this.counts.errors += recorded.length;
      this.failure ??= new TargetFailure(message);
      await this.deps.statuses.record(
        this.source.name,
        this.id,
        recorded.map((p) => ({ ...p.update, status: 'ERROR' as DocumentStatus, checksum: null, error: message })),
      );
      return;
    }
    const updates: StatusUpdate[] = [];
    batch.forEach((p, i) => {
      const reason = outcome.refused.get(i);
      // Removals from former sites record nothing (the new record says where the document is now).
      if (!p.update) return;
      if (reason !== undefined) {
        this.counts.errors += 1;
        updates.push({ ...p.update, status: 'ERROR', checksum: null, error: reason });
        return;
      }
      if (p.item.turSNJobAction === 'DELETE') this.counts.deindexed += 1;
      else this.counts.indexed += 1;
      updates.push(p.update);
    });
    await this.deps.statuses.record(this.source.name, this.id, updates);
  }

  /**
   * reindex: remove the source's documents (or the given ones) from the search service and forget them.
   * Their checksums are forgotten first: if the deletes fail halfway (or the process dies), the next run
   * sends every one of them again instead of taking a deleted document for an unchanged one. Answers how
   * many records it forgot.
   */
  private async deindexTracked(ids?: string[]): Promise<number> {
    await this.deps.statuses.forgetChecksums(this.source.name, ids);
    const tracked = await this.deps.statuses.targets(this.source.name, ids);
    const removable = tracked.filter((t) => t.status !== 'IGNORED');
    for (let i = 0; i < removable.length; i += this.deps.batchSize) {
      this.checkAborted();
      const part = removable.slice(i, i + this.deps.batchSize);
      await this.deps.target.send(
        part.map((t) => this.deleteItem(t.objectId, t.locale, t.sites)),
        false,
      );
    }
    await this.deps.statuses.remove(
      this.source.name,
      tracked.map((t) => t.objectId),
    );
    return tracked.length;
  }

  /** De-index documents that are gone from the source; a refused DELETE keeps its record, as ERROR. */
  private async deindexVanished(vanished: string[]): Promise<void> {
    const tracked = await this.deps.statuses.targets(this.source.name, vanished);
    for (let i = 0; i < tracked.length; i += this.deps.batchSize) {
      this.checkAborted();
      const part = tracked.slice(i, i + this.deps.batchSize);
      const needsDelete = part.filter((t) => t.status !== 'IGNORED');
      const refused =
        needsDelete.length > 0
          ? await this.deps.target.send(
              needsDelete.map((t) => this.deleteItem(t.objectId, t.locale, t.sites)),
              true,
            )
          : new Map<number, string>();
      const failed = needsDelete.flatMap((t, index) =>
        refused.has(index) ? [{ t, reason: refused.get(index)! }] : [],
      );
      const failedIds = new Set(failed.map((f) => f.t.objectId));
      // An ERROR record may stand for a version the index still holds, so it gets a DELETE too, but
      // only documents that were INDEXED count as de-indexed.
      this.counts.deindexed += needsDelete.filter((t) => t.status === 'INDEXED' && !failedIds.has(t.objectId)).length;
      this.counts.errors += failed.length;
      await this.deps.statuses.remove(
        this.source.name,
        part.map((t) => t.objectId).filter((id) => !failedIds.has(id)),
      );
      await this.deps.statuses.record(
        this.source.name,
        this.id,
        failed.map(({ t, reason }) => ({
          objectId: t.objectId,
          status: 'ERROR',
          checksum: null,
          locale: t.locale,
          sites: t.sites,
          error: `could not be de-indexed: ${reason}`,
        })),
      );
    }
  }
}
