import { cachedBy, chunks, type Database, nowIso, readJson, valuesRows, writeJson } from 'vela/plugin';
import type { AcceptedChange } from '../indexing/import-items.js';
import type { Attributes } from '../query/indexable.js';
import { PageDocumentCache } from './page-document-cache.js';

export interface ChangeRow {
  seq: number;
  site_id: string;
  locale: string;
  action: 'CREATE' | 'DELETE';
  doc_id: string;
}

// SQLite allows 500 terms in a compound SELECT, which knex uses for multi-row inserts.
const CHUNK = 400;

/**
 * Rows per statement when a batch is written. The import profile showed knex's query building (its compound
 * SELECT for SQLite, limited to 500 terms) and a statement per 400 rows costing about as much as the rows;
 * plain multi-row VALUES, built once per row count, take the batch in a few statements. Few statements also
 * matter while the indexer works: each waits for the main thread before it is sent. A document row binds 3
 * values and a change row 1 (see below): 8,000 and 20,000 rows stay under SQLite's 32,766 variables and
 * PostgreSQL's 65,535 parameters.
 */
const DOCUMENT_ROWS = 8000;
const CHANGE_ROWS = 20_000;

/*
 * A statement's rows share their site, locale and timestamp (and, in the log, their action): those are bound
 * once per statement, each row binds only what differs. Every bound value costs knex's formatting and
 * node-sqlite3's conversion on the main thread; six values a document and five a change row had the write
 * at a quarter more CPU. SQLite (3.24 and later) and PostgreSQL share this form: VALUES columns are named
 * column1, column2, ... in both; SQLite needs the WHERE to read ON CONFLICT as the upsert's.
 */
const upsertDocumentsSql = cachedBy(
  (rows) =>
    'insert into search_documents (site_id, locale, doc_id, doc_type, attributes, updated_at) ' +
    `select ?, ?, column1, column2, column3, ? from (values ${valuesRows(3, rows)}) as v where true ` +
    'on conflict (site_id, locale, doc_id) do update set doc_type = excluded.doc_type, attributes = excluded.attributes, updated_at = excluded.updated_at',
);

const insertChangesSql = cachedBy(
  (rows) =>
    `insert into search_changes (site_id, locale, action, doc_id, created_at) select ?, ?, ?, column1, ? from (values ${valuesRows(1, rows)}) as v`,
);

/** `select` of the documents with `count` ids of one site and locale (bindings: site, locale, the ids). */
const selectDocumentsSql = cachedBy(
  (count) =>
    `select doc_id, attributes from search_documents where site_id = ? and locale = ? and doc_id in (${new Array(count).fill('?').join(', ')})`,
);

/** A stored document's attributes; a row that is no JSON is a corrupt_row naming it (a 500 to repair, not a guess). */
function attributesOf(row: { doc_id: string; attributes: unknown }): Attributes {
  return readJson<Attributes>(row.attributes, { table: 'search_documents', column: 'attributes', row: row.doc_id });
}

/** Changes of one site and locale. */
interface ScopeChanges {
  siteId: string;
  locale: string;
  changes: AcceptedChange[];
}

/** The last change of each document among `changes`, by site and locale (most batches are of one). */
function lastVersions(changes: AcceptedChange[]): ScopeChanges[] {
  const scopes = new Map<string, Map<string | null, AcceptedChange>>();
  let siteId: string | null = null;
  let locale: string | null = null;
  let scope: Map<string | null, AcceptedChange> | undefined;
  for (const c of changes) {
    if (c.siteId !== siteId || c.locale !== locale || !scope) {
      siteId = c.siteId;
      locale = c.locale;
      const k = `${siteId}\u0000${locale}`;
      scope = scopes.get(k);
      if (!scope) {
        scope = new Map();
        scopes.set(k, scope);
      }
    }
    scope.set(c.docId, c);
  }
  const out: ScopeChanges[] = [];
  for (const byId of scopes.values()) {
    const latest = [...byId.values()];
    out.push({ siteId: latest[0]!.siteId, locale: latest[0]!.locale, changes: latest });
  }
  return out;
}

/** A run of change-log rows with the same site, locale and action, in the order they were made. */
interface LogRun {
  siteId: string;
  locale: string;
  action: ChangeRow['action'];
  ids: string[];
}

function appendToLog(log: LogRun[], siteId: string, locale: string, action: ChangeRow['action'], id: string): void {
  const last = log[log.length - 1];
  if (last && last.siteId === siteId && last.locale === locale && last.action === action) last.ids.push(id);
  else log.push({ siteId, locale, action, ids: [id] });
}

interface RecentVersion {
  seq: number;
  attributes: Attributes | null;
}

/**
 * Recent versions by site and locale, then by document id: the import profile had a joined key string
 * per document (built, hashed, kept) among the store's costs; a document's own id string is hashed once.
 */
class RecentVersions {
  private readonly scopes = new Map<string, Map<string, RecentVersion>>();
  /** The ids put, by batch (seq and scope): forgetting walks the batches passed, not every entry at every step. */
  private batches: Array<{ seq: number; scope: Map<string, RecentVersion>; ids: string[] }> = [];

  find(siteId: string, locale: string): Map<string, RecentVersion> | undefined {
    return this.scopes.get(`${siteId}\u0000${locale}`);
  }

  of(siteId: string, locale: string): Map<string, RecentVersion> {
    let scope = this.find(siteId, locale);
    if (!scope) {
      scope = new Map();
      this.scopes.set(`${siteId}\u0000${locale}`, scope);
    }
    return scope;
  }

  /** `scope` is what `of` gave for the document's site and locale. */
  put(scope: Map<string, RecentVersion>, id: string, version: RecentVersion): void {
    scope.set(id, version);
    const last = this.batches[this.batches.length - 1];
    if (last && last.seq === version.seq && last.scope === scope) last.ids.push(id);
    else this.batches.push({ seq: version.seq, scope, ids: [id] });
  }

  get size(): number {
    let size = 0;
    for (const scope of this.scopes.values()) size += scope.size;
    return size;
  }

  /** Drops every version of seq ≤ `seq` (a later version of the same id stays). */
  forgetUpTo(seq: number): void {
    const kept: typeof this.batches = [];
    for (const batch of this.batches) {
      if (batch.seq > seq) {
        kept.push(batch);
        continue;
      }
      for (const id of batch.ids) if ((batch.scope.get(id)?.seq ?? Infinity) <= seq) batch.scope.delete(id);
    }
    this.batches = kept;
    for (const [k, scope] of this.scopes) if (scope.size === 0) this.scopes.delete(k);
  }
}

/**
 * The PostgreSQL advisory lock that orders appends to the change log. Any fixed number does: advisory
 * locks belong to one database, and nothing else in Vela takes one.
 */
const CHANGE_LOG_LOCK = 7_301_402_001;

/**
 * The documents of every site (so an index can always be rebuilt) and the change log the indexer
 * follows. A batch is written in one transaction: documents and change rows land together or not.
 *
 * The log is commit-ordered: once a change row is visible, every row with a lower seq is visible too or
 * will never be (rolled back). The indexer relies on it when it reads `seq > applied`. SQLite gives this
 * for free (one writer at a time, seq assigned inside its transaction); on PostgreSQL, sequence values
 * are handed out at insert and transactions commit in any order, so `write` serialises the append (see
 * `appendLog`).
 */
export class DocumentStore {
  /**
   * What this process last wrote per document, tagged with the batch's last sequence number (or read
   * with the changes, see `changesAfter`): the indexer takes a version from here instead of reading it
   * back, when it is at least as new as the change it applies. Entries go once the indexer has passed them.
   */
  private readonly recent = new RecentVersions();

  /** Whether appends to the log must take the lock (PostgreSQL: many writers at once). */
  private readonly concurrentWriters: boolean;

  /** Documents of recent result pages, kept in step with the index (see PageDocumentCache). */
  readonly pages: PageDocumentCache;

  constructor(
    private readonly db: Database,
    pageCacheDocuments = 5000,
  ) {
    this.concurrentWriters = db.client.dialect === 'postgresql';
    this.pages = new PageDocumentCache(pageCacheDocuments);
  }

  /** Store an accepted batch; returns the last sequence number it wrote (0 when nothing changed). */
  async write(changes: AcceptedChange[]): Promise<number> {
    if (changes.length === 0) return 0;
    // The versions stored (the accepted changes themselves for creations), for the hand-off cache once committed.
    const written: Array<{ siteId: string; locale: string; docId: string | null; attributes: Attributes | null }> = [];
    const seq = await this.db.transaction(async (trx) => {
      const log: LogRun[] = [];
      let pending: AcceptedChange[] = [];
      const flush = async () => {
        // Within one statement a key may appear once: the last version of a document wins.
        const stamp = nowIso();
        for (const scope of lastVersions(pending)) {
          for (const part of chunks(scope.changes, DOCUMENT_ROWS)) await this.upsertDocuments(trx, scope, part, stamp);
          for (const c of scope.changes) written.push(c);
        }
        for (const c of pending) appendToLog(log, c.siteId, c.locale, 'CREATE', c.docId!);
        pending = [];
      };
      for (const change of changes) {
        if (change.action === 'CREATE') {
          pending.push(change);
          continue;
        }
        await flush();
        const ids =
          change.docId !== null
            ? [change.docId]
            : (
                await trx('search_documents')
                  .select('doc_id')
                  .where({ site_id: change.siteId, locale: change.locale, doc_type: change.docType })
              ).map((r: { doc_id: string }) => r.doc_id);
        for (const part of chunks(ids, CHUNK))
          await trx('search_documents')
            .where({ site_id: change.siteId, locale: change.locale })
            .whereIn('doc_id', part)
            .delete();
        for (const id of ids) {
          appendToLog(log, change.siteId, change.locale, 'DELETE', id);
          written.push({ siteId: change.siteId, locale: change.locale, docId: id, attributes: null });
        }
      }
      await flush();
      return this.appendLog(trx, log);
    });
    // Only after the commit: the cache never holds what the database does not.
    let scope: Map<string, RecentVersion> | undefined;
    let siteId = '';
    let locale = '';
    for (const w of written) {
      if (!scope || w.siteId !== siteId || w.locale !== locale) {
        siteId = w.siteId;
        locale = w.locale;
        scope = this.recent.of(siteId, locale);
      }
      this.recent.put(scope, w.docId!, { seq, attributes: w.attributes });
    }
    return seq;
  }

  private async upsertDocuments(
    trx: Database,
    scope: ScopeChanges,
    part: AcceptedChange[],
    stamp: string,
  ): Promise<void> {
    const bindings: Array<string | null> = [scope.siteId, scope.locale, stamp];
    for (const c of part) {
      const type = c.attributes?.type;
      bindings.push(c.docId, typeof type === 'string' ? type.slice(0, 200) : null, writeJson(c.attributes));
    }
    await trx.raw(upsertDocumentsSql(part.length), bindings);
  }

  /**
   * Append the batch's change rows as the last statements of its transaction; returns the highest seq.
   * On PostgreSQL a transaction-scoped advisory lock, released by the commit (after the commit is
   * visible), is taken first: seqs are then handed out in commit order across every connection and
   * process, so a reader never sees seq n+1 committed while n is still to come. Only this tail is
   * serialised (the documents are written before it, concurrently); the lock holder waits on nothing
   * but its own inserts and commit, so it cannot take part in a deadlock.
   */
  private async appendLog(trx: Database, log: LogRun[]): Promise<number> {
    if (log.length > 0 && this.concurrentWriters) await trx.raw('select pg_advisory_xact_lock(?)', [CHANGE_LOG_LOCK]);
    const stamp = nowIso();
    for (const run of log) {
      for (const ids of chunks(run.ids, CHANGE_ROWS))
        await trx.raw(insertChangesSql(ids.length), [run.siteId, run.locale, run.action, stamp, ...ids]);
    }
    const row = await trx('search_changes').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }

  /**
   * The current version of each changed document (`changes`: id → seq of its last change), for the indexer:
   * from what this process just wrote when that is at least as new as the change, else from the database.
   * null: deleted.
   */
  async currentVersions(
    siteId: string,
    locale: string,
    changes: ReadonlyMap<string, number>,
  ): Promise<Map<string, Attributes | null>> {
    const out = new Map<string, Attributes | null>();
    const missing: string[] = [];
    // The indexer applies these next: pages must not show an older version from here on.
    this.pages.invalidate(siteId, locale, changes.keys());
    const recent = this.recent.find(siteId, locale);
    for (const [id, seq] of changes) {
      const cached = recent?.get(id);
      if (cached && cached.seq >= seq) out.set(id, cached.attributes);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const stored = await this.get(siteId, locale, missing);
      for (const id of missing) out.set(id, stored.get(id) ?? null);
    }
    return out;
  }

  /** The indexer has applied every change up to `seq`. */
  forgetUpTo(seq: number): void {
    this.recent.forgetUpTo(seq);
  }

  /** Stored documents for a result page: from the page cache, the rest from the database. */
  async forPage(siteId: string, locale: string, ids: string[]): Promise<Map<string, Attributes>> {
    const generation = this.pages.currentGeneration();
    const { found, missing } = this.pages.lookup(siteId, locale, ids);
    if (missing.length === 0) return found;
    const read = await this.get(siteId, locale, missing);
    this.pages.fill(siteId, locale, read, generation);
    for (const [id, attributes] of read) found.set(id, attributes);
    return found;
  }

  async get(siteId: string, locale: string, ids: string[]): Promise<Map<string, Attributes>> {
    const out = new Map<string, Attributes>();
    for (const part of chunks(ids, CHUNK)) {
      // Raw SQL, its text made once per id count: compiling knex's builder cost as much as the read (a search
      // whose page is not cached reads here).
      const result = await this.db.raw(selectDocumentsSql(part.length), [siteId, locale, ...part]);
      const rows = (Array.isArray(result) ? result : result.rows) as Array<{ doc_id: string; attributes: string }>;
      for (const row of rows) out.set(row.doc_id, attributesOf(row));
    }
    return out;
  }

  /** Every document of a site and locale, a page at a time (for rebuilds and validation). */
  async *scan(
    siteId: string,
    locale: string,
    pageSize = 2000,
  ): AsyncGenerator<Array<{ id: string; attributes: Attributes }>> {
    let after = '';
    for (;;) {
      const rows = (await this.db('search_documents')
        .select('doc_id', 'attributes')
        .where({ site_id: siteId, locale })
        .andWhere('doc_id', '>', after)
        .orderBy('doc_id')
        .limit(pageSize)) as Array<{ doc_id: string; attributes: string }>;
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.doc_id, attributes: attributesOf(r) }));
      after = rows[rows.length - 1]!.doc_id;
    }
  }

  async count(siteId: string, locale?: string): Promise<number> {
    const query = this.db('search_documents').where({ site_id: siteId });
    if (locale) query.andWhere({ locale });
    const row = await query.count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /**
   * The next changes after `seq`, in seq order: with the log commit-ordered, nothing below them is still to
   * come. Changes this process did not write (another process's import) come with their documents' current
   * versions in the same query, kept for `currentVersions`: one round trip less before they are searchable.
   */
  async changesAfter(seq: number, limit: number): Promise<ChangeRow[]> {
    if (this.recent.size > 0) {
      const rows = (await this.db('search_changes')
        .select('seq', 'site_id', 'locale', 'action', 'doc_id')
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(limit)) as ChangeRow[];
      // In place: the rows are this call's own (a bigint seq comes from PostgreSQL as a string).
      for (const row of rows) row.seq = Number(row.seq);
      return rows;
    }
    const rows = (await this.db('search_changes as c')
      .leftJoin('search_documents as d', (join) =>
        join.on('d.site_id', 'c.site_id').andOn('d.locale', 'c.locale').andOn('d.doc_id', 'c.doc_id'),
      )
      .select('c.seq', 'c.site_id', 'c.locale', 'c.action', 'c.doc_id', 'd.attributes')
      .where('c.seq', '>', seq)
      .orderBy('c.seq')
      .limit(limit)) as Array<ChangeRow & { attributes: string | null }>;
    const changes = rows.map(({ attributes: _read, ...r }) => ({ ...r, seq: Number(r.seq) }));
    // Read in one snapshot with the changes: at least as new as the last of them (a write of this process
    // since then is newer still and stays).
    const last = changes[changes.length - 1]?.seq ?? seq;
    for (const row of rows) {
      const recent = this.recent.of(row.site_id, row.locale);
      if ((recent.get(row.doc_id)?.seq ?? 0) < last)
        this.recent.put(recent, row.doc_id, {
          seq: last,
          attributes: row.attributes === null ? null : attributesOf(row),
        });
    }
    return changes;
  }

  /** Changes not yet applied by an indexer that has applied up to `seq`, per site and locale. */
  async pendingCounts(seq: number): Promise<Map<string, number>> {
    const rows = (await this.db('search_changes')
      .select('site_id', 'locale')
      .count({ n: '*' })
      .where('seq', '>', seq)
      .groupBy('site_id', 'locale')) as Array<{
      site_id: string;
      locale: string;
      n: number | string;
    }>;
    return new Map(rows.map((r) => [`${r.site_id}:${r.locale}`, Number(r.n)]));
  }

  async maxSeq(): Promise<number> {
    const row = await this.db('search_changes').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }

  /**
   * Whether the log still holds every change after `seq`. A prune deletes every row below its bound and
   * keeps the row at it, so the changes after `seq` are all there exactly when the oldest row is at most
   * seq + 1 (or the log is empty). The indexer's own prunes keep this true; a prune by another process
   * whose indexer was further ahead, or a restored older snapshot, makes it false.
   */
  async holdsChangesAfter(seq: number): Promise<boolean> {
    const row = await this.db('search_changes').min({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0) <= seq + 1;
  }

  /** Drop change rows a snapshot already covers. */
  async pruneChanges(upTo: number): Promise<void> {
    // The row at upTo stays, so the highest sequence number survives a prune (stale-snapshot check).
    await this.db('search_changes').where('seq', '<', upTo).delete();
  }
}
