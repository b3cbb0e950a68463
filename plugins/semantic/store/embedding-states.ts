import { cachedBy, chunks, type Database, nowIso, toIso, valuesRows } from 'vela/plugin';
import { rowsOf } from './raw-rows.js';

export type EmbeddingState = 'pending' | 'done' | 'failed';

/** A document whose embedding is to be made, with the hash of the text it is to be made of. */
export interface PendingDocument {
  docId: string;
  textHash: string;
}

/** A row a worker holds until `claimedUntil` (epoch ms): embed the document, then mark it done or failed. */
export interface ClaimedDocument {
  siteId: string;
  locale: string;
  docId: string;
  modelKey: string;
  textHash: string;
  claimedUntil: number;
}

/** What a claim may be narrowed to. */
export interface ClaimScope {
  siteId?: string;
  locale?: string;
  modelKey?: string;
}

/** The documents of one site, locale and model in each state; `claimed`: pending ones a worker holds now. */
export interface StateCounts {
  locale: string;
  modelKey: string;
  pending: number;
  claimed: number;
  done: number;
  failed: number;
  passages: number;
}

export interface EmbeddingFailure {
  locale: string;
  docId: string;
  modelKey: string;
  reason: string;
  updatedAt: string;
}

/** A finished document: `textHash` the hash of the text embedded (the claim's). */
export interface DoneDocument {
  docId: string;
  textHash: string;
  passages: number;
}

export interface FailedDocument {
  docId: string;
  /** The claim's hash: a row whose text changed since is pending again and is left so. Absent: fail it anyway. */
  textHash?: string;
  reason: string;
}

/** Documents per statement: 2 bound values each. */
const PENDING_ROWS = 2000;
const ID_ROWS = 500;
/** What a failure keeps of its reason. */
const REASON_CHARS = 1000;

/*
 * A document is (re)made pending unless it is pending or done for the same text already: a failed one is tried
 * again. Its lease goes with it (a worker still embedding the older text finds the hash changed when it reports).
 * SQLite needs the WHERE to read ON CONFLICT as the upsert's.
 */
const markPendingSql = cachedBy(
  (rows) =>
    'insert into semantic_documents (site_id, locale, model_key, updated_at, state, doc_id, text_hash) ' +
    `select ?, ?, ?, ?, 'pending', column1, column2 from (values ${valuesRows(2, rows)}) as v where true ` +
    'on conflict (site_id, locale, doc_id, model_key) do update set state = excluded.state, ' +
    'text_hash = excluded.text_hash, reason = null, claimed_until = null, passages = 0, updated_at = excluded.updated_at ' +
    "where semantic_documents.state = 'failed' or coalesce(semantic_documents.text_hash, '') <> excluded.text_hash " +
    'returning doc_id',
);

/** Free to claim: pending, and held by nobody or by a lease that ran out (bound: now). */
const FREE = "state = 'pending' and (claimed_until is null or claimed_until < ?)";
const PICK_ORDER = 'order by updated_at, site_id, locale, doc_id, model_key limit ?';

/** Bindings: the lease's end, now, the scope's values, the limit, now. */
const claimSqliteSql = (filters: string) =>
  'update semantic_documents set claimed_until = ? where (site_id, locale, doc_id, model_key) in (' +
  `select site_id, locale, doc_id, model_key from semantic_documents where ${FREE}${filters} ${PICK_ORDER}) ` +
  `and ${FREE} returning site_id, locale, doc_id, model_key, text_hash, claimed_until`;

/** Bindings: now, the scope's values, the limit, the lease's end, now. */
const claimPostgresSql = (filters: string) =>
  'with picked as materialized (select site_id, locale, doc_id, model_key from semantic_documents ' +
  `where ${FREE}${filters} ${PICK_ORDER} for update skip locked) ` +
  'update semantic_documents d set claimed_until = ? from picked p where d.site_id = p.site_id and ' +
  "d.locale = p.locale and d.doc_id = p.doc_id and d.model_key = p.model_key and d.state = 'pending' and " +
  '(d.claimed_until is null or d.claimed_until < ?) ' +
  'returning d.site_id, d.locale, d.doc_id, d.model_key, d.text_hash, d.claimed_until';

export interface EmbeddingStatesOptions {
  /** Epoch milliseconds now; leases are compared with it. */
  clock?: () => number;
}

/**
 * Each document's embedding state per site, locale and model (`semantic_documents`): the queue of the embedding
 * job, shared by every process on the database. Workers claim pending rows with a lease, so a row is handed to
 * one worker at a time and comes back when its worker dies.
 */
export class EmbeddingStates {
  private readonly postgres: boolean;
  private readonly clock: () => number;

  constructor(
    private readonly db: Database,
    options: EmbeddingStatesOptions = {},
  ) {
    this.postgres = db.client.dialect === 'postgresql';
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Make `docs` pending for `modelKey`, skipping those pending or done with the same text hash already; returns the
   * ids made pending (the last entry of an id wins).
   */
  async markPending(siteId: string, locale: string, modelKey: string, docs: PendingDocument[]): Promise<string[]> {
    const latest = [...new Map(docs.map((d) => [d.docId, d.textHash])).entries()].sort((a, b) =>
      a[0] < b[0] ? -1 : 1,
    );
    const made: string[] = [];
    const stamp = nowIso();
    for (const part of chunks(latest, PENDING_ROWS)) {
      const result = await this.db.raw(markPendingSql(part.length), [siteId, locale, modelKey, stamp, ...part.flat()]);
      for (const row of rowsOf<{ doc_id: string }>(result)) made.push(row.doc_id);
    }
    return made;
  }

  /**
   * Hand up to `limit` pending rows, oldest first, to the caller for `leaseMs`: rows nobody holds or whose lease
   * ran out. One statement, so two claimers (threads, processes) never get one row both: SQLite runs it under its
   * write lock; on PostgreSQL the rows are picked once (a materialised CTE: an `in (subquery)` may be rescanned and
   * pick others) with `for update skip locked`, passing over rows another claim is taking, and the update checks
   * the condition again on each row as it is once locked.
   */
  async claim(limit: number, leaseMs: number, scope: ClaimScope = {}): Promise<ClaimedDocument[]> {
    if (limit <= 0) return [];
    const now = this.clock();
    const filters: string[] = [];
    const filterValues: string[] = [];
    for (const [column, value] of [
      ['site_id', scope.siteId],
      ['locale', scope.locale],
      ['model_key', scope.modelKey],
    ] as const)
      if (value !== undefined) {
        filters.push(` and ${column} = ?`);
        filterValues.push(value);
      }
    const sql = this.postgres ? claimPostgresSql(filters.join('')) : claimSqliteSql(filters.join(''));
    const pick = [now, ...filterValues, Math.floor(limit)];
    const bindings = this.postgres ? [...pick, now + leaseMs, now] : [now + leaseMs, ...pick, now];
    const result = await this.db.raw(sql, bindings);
    return rowsOf<Record<string, unknown>>(result)
      .map((r) => ({
        siteId: String(r.site_id),
        locale: String(r.locale),
        docId: String(r.doc_id),
        modelKey: String(r.model_key),
        textHash: String(r.text_hash ?? ''),
        claimedUntil: Number(r.claimed_until),
      }))
      .sort((a, b) => (a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : 0));
  }

  /** Give claimed rows back before their lease ends (a worker stopping). */
  async release(siteId: string, locale: string, modelKey: string, docIds: string[]): Promise<void> {
    for (const ids of chunks(docIds, ID_ROWS))
      await this.db('semantic_documents')
        .where({ site_id: siteId, locale, model_key: modelKey, state: 'pending' })
        .whereIn('doc_id', ids)
        .update({ claimed_until: null });
  }

  /**
   * Mark pending rows done, those whose text is still the one embedded (same hash); returns their ids: write the
   * vectors of only these, in the same `trx`, so a document's state and vectors agree.
   */
  async markDone(
    siteId: string,
    locale: string,
    modelKey: string,
    docs: DoneDocument[],
    trx?: Database,
  ): Promise<string[]> {
    const q = trx ?? this.db;
    const stamp = nowIso();
    const accepted: string[] = [];
    for (const doc of [...docs].sort((a, b) => (a.docId < b.docId ? -1 : 1))) {
      const changed = await q('semantic_documents')
        .where({
          site_id: siteId,
          locale,
          model_key: modelKey,
          doc_id: doc.docId,
          state: 'pending',
          text_hash: doc.textHash,
        })
        .update({ state: 'done', passages: doc.passages, reason: null, claimed_until: null, updated_at: stamp });
      if (Number(changed) > 0) accepted.push(doc.docId);
    }
    return accepted;
  }

  /** Mark pending rows failed with their reason; returns the ids marked. */
  async markFailed(
    siteId: string,
    locale: string,
    modelKey: string,
    docs: FailedDocument[],
    trx?: Database,
  ): Promise<string[]> {
    const q = trx ?? this.db;
    const stamp = nowIso();
    const marked: string[] = [];
    for (const doc of [...docs].sort((a, b) => (a.docId < b.docId ? -1 : 1))) {
      const query = q('semantic_documents').where({
        site_id: siteId,
        locale,
        model_key: modelKey,
        doc_id: doc.docId,
        state: 'pending',
      });
      if (doc.textHash !== undefined) query.andWhere({ text_hash: doc.textHash });
      const changed = await query.update({
        state: 'failed',
        reason: doc.reason.slice(0, REASON_CHARS),
        passages: 0,
        claimed_until: null,
        updated_at: stamp,
      });
      if (Number(changed) > 0) marked.push(doc.docId);
    }
    return marked;
  }

  /** The state of each document of a site by locale and model, for monitoring. */
  async counts(siteId: string): Promise<StateCounts[]> {
    const now = this.clock();
    const rows = (await this.db('semantic_documents')
      .where({ site_id: siteId })
      .select('locale', 'model_key', 'state')
      .count({ n: '*' })
      .sum({ passages: 'passages' })
      .select(this.db.raw('sum(case when claimed_until >= ? then 1 else 0 end) as claimed', [now]))
      .groupBy('locale', 'model_key', 'state')
      .orderBy(['locale', 'model_key'])) as Array<Record<string, unknown>>;
    const byScope = new Map<string, StateCounts>();
    for (const r of rows) {
      const key = `${r.locale}\u0000${r.model_key}`;
      let counts = byScope.get(key);
      if (!counts) {
        counts = {
          locale: String(r.locale),
          modelKey: String(r.model_key),
          pending: 0,
          claimed: 0,
          done: 0,
          failed: 0,
          passages: 0,
        };
        byScope.set(key, counts);
      }
      const state = r.state as EmbeddingState;
      if (state === 'pending' || state === 'done' || state === 'failed') counts[state] += Number(r.n);
      if (state === 'pending') counts.claimed += Number(r.claimed ?? 0);
      counts.passages += Number(r.passages ?? 0);
    }
    return [...byScope.values()];
  }

  /** The failed documents of a site, most recent first. */
  async failures(
    siteId: string,
    options: { locale?: string; modelKey?: string; limit?: number; offset?: number } = {},
  ): Promise<EmbeddingFailure[]> {
    const query = this.db('semantic_documents')
      .select('locale', 'doc_id', 'model_key', 'reason', 'updated_at')
      .where({ site_id: siteId, state: 'failed' })
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'doc_id', order: 'asc' },
      ])
      .limit(options.limit ?? 100)
      .offset(options.offset ?? 0);
    if (options.locale !== undefined) query.andWhere({ locale: options.locale });
    if (options.modelKey !== undefined) query.andWhere({ model_key: options.modelKey });
    const rows = (await query) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      locale: String(r.locale),
      docId: String(r.doc_id),
      modelKey: String(r.model_key),
      reason: String(r.reason ?? ''),
      updatedAt: toIso(r.updated_at),
    }));
  }

  /** The state of one document for a model; undefined: never marked. */
  async get(
    siteId: string,
    locale: string,
    modelKey: string,
    docId: string,
  ): Promise<{ state: EmbeddingState; textHash: string | null; passages: number; reason: string | null } | undefined> {
    const row = (await this.db('semantic_documents')
      .select('state', 'text_hash', 'passages', 'reason')
      .where({ site_id: siteId, locale, model_key: modelKey, doc_id: docId })
      .first()) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    return {
      state: row.state as EmbeddingState,
      textHash: (row.text_hash as string | null) ?? null,
      passages: Number(row.passages),
      reason: (row.reason as string | null) ?? null,
    };
  }

  /** Forget documents (deleted from the site), for one model or every model. */
  async remove(siteId: string, locale: string, docIds: string[], modelKey?: string): Promise<void> {
    for (const ids of chunks([...new Set(docIds)], ID_ROWS)) {
      const query = this.db('semantic_documents').where({ site_id: siteId, locale }).whereIn('doc_id', ids);
      if (modelKey !== undefined) query.andWhere({ model_key: modelKey });
      await query.delete();
    }
  }

  /** Forget every state of a model (retired). */
  async forgetModel(siteId: string, locale: string, modelKey: string): Promise<void> {
    await this.db('semantic_documents').where({ site_id: siteId, locale, model_key: modelKey }).delete();
  }

  /** Forget every state of a deleted site. */
  async forgetSite(siteId: string): Promise<void> {
    await this.db('semantic_documents').where({ site_id: siteId }).delete();
  }
}
