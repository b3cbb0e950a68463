import type { Database } from 'vela/plugin';
import type { AcceptedChange } from '../indexing/import-items.js';
import type { Attributes } from '../query/indexable.js';
import { PageDocumentCache } from './page-document-cache.js';
import { now } from './timestamps.js';

export interface ChangeRow {
  seq: number;
  site_id: string;
  locale: string;
  action: 'CREATE' | 'DELETE';
  doc_id: string;
}

// SQLite allows 500 terms in a compound SELECT, which knex uses for multi-row inserts.
const CHUNK = 400;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Rows per statement when a batch is written. The import profile showed knex's query building (its compound
 * SELECT for SQLite, limited to 500 terms) and a statement per 400 rows costing about as much as the rows;
 * plain multi-row VALUES, built once per row count, take the batch in a few statements. 2,000 rows of 6
 * values stay under SQLite's 32,766 variables and PostgreSQL's 65,535 parameters.
 */
const WRITE_ROWS = 2000;

const rowsSql = (columns: number, rows: number) => {
  const row = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(row).join(', ');
};

/** SQL text per row count (a batch has a few counts: the full chunk and its remainder). */
function cachedBy(build: (rows: number) => string): (rows: number) => string {
  const cache = new Map<number, string>();
  return (rows) => {
    let sql = cache.get(rows);
    if (sql === undefined) {
      if (cache.size > 64) cache.clear();
      sql = build(rows);
      cache.set(rows, sql);
    }
    return sql;
  };
}

// SQLite (3.24 and later) and PostgreSQL share this upsert form.
const upsertDocumentsSql = cachedBy(
  (rows) =>
    `insert into search_documents (site_id, locale, doc_id, doc_type, attributes, updated_at) values ${rowsSql(6, rows)} ` +
    'on conflict (site_id, locale, doc_id) do update set doc_type = excluded.doc_type, attributes = excluded.attributes, updated_at = excluded.updated_at',
);

const insertChangesSql = cachedBy((rows) => `insert into search_changes (site_id, locale, action, doc_id, created_at) values ${rowsSql(5, rows)}`);

/** The last change of each document among `changes` (most batches are of one site and locale). */
function lastVersions(changes: AcceptedChange[]): AcceptedChange[] {
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
  const out: AcceptedChange[] = [];
  for (const byId of scopes.values()) for (const c of byId.values()) out.push(c);
  return out;
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

  get size(): number {
    let size = 0;
    for (const scope of this.scopes.values()) size += scope.size;
    return size;
  }

  forgetUpTo(seq: number): void {
    for (const [k, scope] of this.scopes) {
      for (const [id, entry] of scope) if (entry.seq <= seq) scope.delete(id);
      if (scope.size === 0) this.scopes.delete(k);
    }
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
    const written: Array<[AcceptedChange | { siteId: string; locale: string; docId: string }, Attributes | null]> = [];
    const seq = await this.db.transaction(async (trx) => {
      const log: Array<Omit<ChangeRow, 'seq'>> = [];
      let pending: AcceptedChange[] = [];
      const flush = async () => {
        // Within one statement a key may appear once: the last version of a document wins.
        const latest = lastVersions(pending);
        const stamp = now();
        for (const part of chunks(latest, WRITE_ROWS)) {
          const bindings: Array<string | null> = [];
          for (const c of part) {
            const type = c.attributes?.type;
            bindings.push(c.siteId, c.locale, c.docId, typeof type === 'string' ? type.slice(0, 200) : null, JSON.stringify(c.attributes), stamp);
          }
          await trx.raw(upsertDocumentsSql(part.length), bindings);
        }
        for (const c of pending) log.push({ site_id: c.siteId, locale: c.locale, action: 'CREATE', doc_id: c.docId! });
        for (const c of latest) written.push([c, c.attributes]);
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
            : (await trx('search_documents').select('doc_id').where({ site_id: change.siteId, locale: change.locale, doc_type: change.docType })).map(
                (r: { doc_id: string }) => r.doc_id,
              );
        for (const part of chunks(ids)) await trx('search_documents').where({ site_id: change.siteId, locale: change.locale }).whereIn('doc_id', part).delete();
        for (const id of ids) {
          log.push({ site_id: change.siteId, locale: change.locale, action: 'DELETE', doc_id: id });
          written.push([{ siteId: change.siteId, locale: change.locale, docId: id }, null]);
        }
      }
      await flush();
      return this.appendLog(trx, log);
    });
    // Only after the commit: the cache never holds what the database does not.
    for (const [c, attributes] of written) this.recent.of(c.siteId, c.locale).set(c.docId!, { seq, attributes });
    return seq;
  }

  /**
   * Append the batch's change rows as the last statements of its transaction; returns the highest seq.
   * On PostgreSQL a transaction-scoped advisory lock, released by the commit (after the commit is
   * visible), is taken first: seqs are then handed out in commit order across every connection and
   * process, so a reader never sees seq n+1 committed while n is still to come. Only this tail is
   * serialised (the documents are written before it, concurrently); the lock holder waits on nothing
   * but its own inserts and commit, so it cannot take part in a deadlock.
   */
  private async appendLog(trx: Database, log: Array<Omit<ChangeRow, 'seq'>>): Promise<number> {
    if (log.length > 0 && this.concurrentWriters) await trx.raw('select pg_advisory_xact_lock(?)', [CHANGE_LOG_LOCK]);
    const stamp = now();
    for (const part of chunks(log, WRITE_ROWS)) {
      const bindings: Array<string | null> = [];
      for (const c of part) bindings.push(c.site_id, c.locale, c.action, c.doc_id, stamp);
      await trx.raw(insertChangesSql(part.length), bindings);
    }
    const row = await trx('search_changes').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }

  /**
   * The current version of each changed document, for the indexer: from what this process just
   * wrote when that is at least as new as the change, else from the database. null: deleted.
   */
  async currentVersions(siteId: string, locale: string, changes: Array<{ id: string; seq: number }>): Promise<Map<string, Attributes | null>> {
    const out = new Map<string, Attributes | null>();
    const missing: string[] = [];
    // The indexer applies these next: pages must not show an older version from here on.
    this.pages.invalidate(
      siteId,
      locale,
      changes.map((c) => c.id),
    );
    const recent = this.recent.find(siteId, locale);
    for (const { id, seq } of changes) {
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
    for (const part of chunks(ids)) {
      const rows = await this.db('search_documents').select('doc_id', 'attributes').where({ site_id: siteId, locale }).whereIn('doc_id', part);
      for (const row of rows as Array<{ doc_id: string; attributes: string }>) out.set(row.doc_id, JSON.parse(row.attributes) as Attributes);
    }
    return out;
  }

  /** Every document of a site and locale, a page at a time (for rebuilds and validation). */
  async *scan(siteId: string, locale: string, pageSize = 2000): AsyncGenerator<Array<{ id: string; attributes: Attributes }>> {
    let after = '';
    for (;;) {
      const rows = (await this.db('search_documents')
        .select('doc_id', 'attributes')
        .where({ site_id: siteId, locale })
        .andWhere('doc_id', '>', after)
        .orderBy('doc_id')
        .limit(pageSize)) as Array<{ doc_id: string; attributes: string }>;
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.doc_id, attributes: JSON.parse(r.attributes) as Attributes }));
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
      const rows = await this.db('search_changes').select('seq', 'site_id', 'locale', 'action', 'doc_id').where('seq', '>', seq).orderBy('seq').limit(limit);
      return (rows as ChangeRow[]).map((r) => ({ ...r, seq: Number(r.seq) }));
    }
    const rows = (await this.db('search_changes as c')
      .leftJoin('search_documents as d', (join) => join.on('d.site_id', 'c.site_id').andOn('d.locale', 'c.locale').andOn('d.doc_id', 'c.doc_id'))
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
        recent.set(row.doc_id, { seq: last, attributes: row.attributes ? (JSON.parse(row.attributes) as Attributes) : null });
    }
    return changes;
  }

  /** Changes not yet applied by an indexer that has applied up to `seq`, per site and locale. */
  async pendingCounts(seq: number): Promise<Map<string, number>> {
    const rows = (await this.db('search_changes').select('site_id', 'locale').count({ n: '*' }).where('seq', '>', seq).groupBy('site_id', 'locale')) as Array<{
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
