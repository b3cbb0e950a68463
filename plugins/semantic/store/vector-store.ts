import { cachedBy, chunks, type Database, type Knex, toBool, valuesRows } from 'vela/plugin';
import { rowsOf } from './raw-rows.js';
import { checkVector, fromBlob, fromPgArray, toBlob, toPgArray, toPgvector } from './vector-codec.js';

/** A document's passage vectors, passage 0 first. No vectors: the document has none now (nothing to embed). */
export interface DocumentVectors {
  docId: string;
  vectors: Float32Array[];
}

/** One stored passage vector. */
export interface StoredPassage {
  docId: string;
  passage: number;
  vector: Float32Array;
}

/** A write to the vectors of one document: replaced, or removed (`removed`: it has none now). */
export interface VectorChange {
  seq: number;
  siteId: string;
  locale: string;
  modelKey: string;
  docId: string;
  removed: boolean;
}

/** A document found by `nearest`: its best passage's cosine similarity (vectors are stored normalised). */
export interface NearestDocument {
  id: string;
  score: number;
}

export interface VectorStoreOptions {
  /** Search with pgvector's `<=>` over the `embedding` column (see detectPgvector and addEmbeddingColumn). */
  pgvector?: boolean;
}

/** Rows per statement: 7 bound values a vector row, 6 a change row, under SQLite's 32,766 and PostgreSQL's 65,535. */
const VECTOR_ROWS = 1000;
const CHANGE_ROWS = 4000;
/** Ids per `in (...)` list. */
const ID_ROWS = 500;

/**
 * The PostgreSQL advisory lock that orders appends to the vector log, as the search plugin's DocumentStore does for
 * its change log (another number: the two logs are independent).
 */
const VECTOR_LOG_LOCK = 7_301_402_101;

const insertChangesSql = cachedBy(
  (rows) =>
    `insert into semantic_vector_changes (site_id, locale, model_key, doc_id, removed, created_at) values ${valuesRows(6, rows)}`,
);

function byModelAndDocument(a: Omit<VectorChange, 'seq'>, b: Omit<VectorChange, 'seq'>): number {
  if (a.modelKey !== b.modelKey) return a.modelKey < b.modelKey ? -1 : 1;
  return a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : 0;
}

/**
 * The passage vectors of every site's documents, per locale and embedding model, and the log of their writes.
 *
 * The log is commit-ordered like the search change log (docs/ARCHITECTURE.md, "The change log is commit-ordered"):
 * a process follows `seq > applied`, so no row with a lower seq may become visible after a higher one was read. On
 * PostgreSQL a bigserial is handed out at insert and transactions commit in any order, so each write appends its
 * log rows last, after a transaction-scoped advisory lock that the commit releases; SQLite has one writer at a time.
 * The log is a table of its own (not a seq on the vectors) because a removal leaves no vector row to carry one.
 */
export class VectorStore {
  private readonly postgres: boolean;
  private readonly pgvector: boolean;

  constructor(
    private readonly db: Database,
    options: VectorStoreOptions = {},
  ) {
    this.postgres = db.client.dialect === 'postgresql';
    this.pgvector = this.postgres && options.pgvector === true;
  }

  /** Whether `nearest` uses pgvector's `<=>` (else the dot product over real[]). */
  get usesPgvector(): boolean {
    return this.pgvector;
  }

  /** Whether `nearest` searches in SQL (PostgreSQL); on SQLite an in-memory index does. */
  get searchesInSql(): boolean {
    return this.postgres;
  }

  /**
   * Replace the vectors of `docs` (the last entry of an id wins); returns the last seq written. Inside `trx` when
   * given (with the embedding states it completes), else in a transaction of its own.
   */
  async write(
    siteId: string,
    locale: string,
    modelKey: string,
    docs: DocumentVectors[],
    trx?: Database,
  ): Promise<number> {
    const latest = [...new Map(docs.map((d) => [d.docId, d])).values()].sort((a, b) => (a.docId < b.docId ? -1 : 1));
    if (latest.length === 0) return 0;
    const dimensions = latest.find((d) => d.vectors.length > 0)?.vectors[0]?.length;
    for (const doc of latest) for (const vector of doc.vectors) checkVector(vector, dimensions);
    const docIds = latest.map((d) => d.docId);
    return this.within(trx, async (q) => {
      for (const ids of chunks(docIds, ID_ROWS))
        await q('semantic_vectors')
          .where({ site_id: siteId, locale, model_key: modelKey })
          .whereIn('doc_id', ids)
          .delete();
      const rows: Knex.Value[][] = [];
      for (const doc of latest)
        for (const [passage, vector] of doc.vectors.entries())
          rows.push(this.vectorRow(siteId, locale, modelKey, doc.docId, passage, vector));
      for (const part of chunks(rows, VECTOR_ROWS)) await q.raw(this.insertVectorsSql(part.length), part.flat());
      return this.appendLog(
        q,
        latest.map((d) => ({ siteId, locale, modelKey, docId: d.docId, removed: d.vectors.length === 0 })),
      );
    });
  }

  /** Remove the vectors of `docIds`, of one model or (none named) of every model; returns the last seq written. */
  async remove(siteId: string, locale: string, docIds: string[], modelKey?: string, trx?: Database): Promise<number> {
    if (docIds.length === 0) return 0;
    const sorted = [...new Set(docIds)].sort();
    return this.within(trx, async (q) => {
      const gone = new Map<string, Omit<VectorChange, 'seq'>>();
      for (const ids of chunks(sorted, ID_ROWS)) {
        // Deleted and read in one statement: a SQLite transaction that reads before it writes may be refused the
        // write lock.
        const byModel = modelKey === undefined ? '' : ' and model_key = ?';
        const result = await q.raw(
          `delete from semantic_vectors where site_id = ? and locale = ?${byModel} and doc_id in (${ids.map(() => '?').join(', ')}) returning model_key, doc_id`,
          [siteId, locale, ...(modelKey === undefined ? [] : [modelKey]), ...ids],
        );
        for (const r of rowsOf<{ model_key: string; doc_id: string }>(result))
          gone.set(`${r.model_key}\u0000${r.doc_id}`, {
            siteId,
            locale,
            modelKey: r.model_key,
            docId: r.doc_id,
            removed: true,
          });
      }
      return this.appendLog(q, [...gone.values()].sort(byModelAndDocument));
    });
  }

  /**
   * Every vector of a model, logged as nothing: processes drop a retired model's index as a whole (the model's
   * state says so), not document by document.
   */
  async forgetModel(siteId: string, locale: string, modelKey: string): Promise<void> {
    await this.db('semantic_vectors').where({ site_id: siteId, locale, model_key: modelKey }).delete();
  }

  /** Every vector of a deleted site, every locale and model. */
  async forgetSite(siteId: string): Promise<void> {
    await this.db('semantic_vectors').where({ site_id: siteId }).delete();
  }

  /** The current vectors of `docIds` (passage 0 first); an id without vectors is absent. */
  async read(siteId: string, locale: string, modelKey: string, docIds: string[]): Promise<Map<string, Float32Array[]>> {
    const out = new Map<string, Float32Array[]>();
    for (const ids of chunks([...new Set(docIds)], ID_ROWS)) {
      const rows = (await this.db('semantic_vectors')
        .select('doc_id', 'passage', 'vector')
        .where({ site_id: siteId, locale, model_key: modelKey })
        .whereIn('doc_id', ids)
        .orderBy(['doc_id', 'passage'])) as Array<{ doc_id: string; passage: number; vector: unknown }>;
      for (const row of rows) {
        const vectors = out.get(row.doc_id) ?? [];
        vectors.push(this.vectorOf(row.vector));
        out.set(row.doc_id, vectors);
      }
    }
    return out;
  }

  /** Every passage vector of a site, locale and model, a page at a time in (document, passage) order. */
  async *scan(siteId: string, locale: string, modelKey: string, pageSize = 1000): AsyncGenerator<StoredPassage[]> {
    let after: [string, number] | null = null;
    for (;;) {
      const query = this.db('semantic_vectors')
        .select('doc_id', 'passage', 'vector')
        .where({ site_id: siteId, locale, model_key: modelKey })
        .orderBy(['doc_id', 'passage'])
        .limit(pageSize);
      if (after) query.andWhereRaw('(doc_id, passage) > (?, ?)', after);
      const rows = (await query) as Array<{ doc_id: string; passage: number; vector: unknown }>;
      if (rows.length === 0) return;
      yield rows.map((r) => ({ docId: r.doc_id, passage: Number(r.passage), vector: this.vectorOf(r.vector) }));
      const last = rows[rows.length - 1]!;
      after = [last.doc_id, Number(last.passage)];
    }
  }

  /** How many documents and passages a model has vectors for. */
  async count(siteId: string, locale: string, modelKey: string): Promise<{ documents: number; passages: number }> {
    const row = (await this.db('semantic_vectors')
      .where({ site_id: siteId, locale, model_key: modelKey })
      .select(this.db.raw('count(distinct doc_id) as documents, count(*) as passages'))
      .first()) as { documents: number | string; passages: number | string } | undefined;
    return { documents: Number(row?.documents ?? 0), passages: Number(row?.passages ?? 0) };
  }

  /** Whether a model has any vector for the site and locale: one row looked up, not counted. */
  async hasVectors(siteId: string, locale: string, modelKey: string): Promise<boolean> {
    const row = await this.db('semantic_vectors')
      .where({ site_id: siteId, locale, model_key: modelKey })
      .first('doc_id');
    return row !== undefined;
  }

  /** The writes after `seq`, in seq order: with the log commit-ordered, none below them is still to come. */
  async changesAfter(seq: number, limit: number): Promise<VectorChange[]> {
    const rows = (await this.db('semantic_vector_changes')
      .select('seq', 'site_id', 'locale', 'model_key', 'doc_id', 'removed')
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      seq: Number(r.seq),
      siteId: String(r.site_id),
      locale: String(r.locale),
      modelKey: String(r.model_key),
      docId: String(r.doc_id),
      removed: toBool(r.removed),
    }));
  }

  /** The newest seq (0: none yet): where a process that has just read every vector starts following. */
  async maxSeq(): Promise<number> {
    const row = await this.db('semantic_vector_changes').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }

  /** Drop the log rows below `upTo` (every follower is past them); the row at it stays, keeping the newest seq. */
  async pruneChanges(upTo: number): Promise<void> {
    await this.db('semantic_vector_changes').where('seq', '<', upTo).delete();
  }

  /**
   * The `k` documents whose best passage is nearest `query` (normalised), best first, computed in SQL: exactly, by
   * dot product over real[], or with pgvector's cosine distance when it is there. PostgreSQL only.
   */
  async nearest(
    siteId: string,
    locale: string,
    modelKey: string,
    query: Float32Array,
    k: number,
  ): Promise<NearestDocument[]> {
    if (!this.postgres)
      throw new Error('nearest in SQL needs PostgreSQL; on SQLite vectors are searched in the in-memory index');
    checkVector(query);
    if (k <= 0) return [];
    const literal = this.pgvector ? toPgvector(query) : toPgArray(query);
    const result = await this.db.raw(nearestSql(this.pgvector), [literal, siteId, locale, modelKey, Math.floor(k)]);
    return rowsOf<{ doc_id: string; score: number | string }>(result).map((r) => ({
      id: r.doc_id,
      score: Number(r.score),
    }));
  }

  private within<T>(trx: Database | undefined, work: (q: Database) => Promise<T>): Promise<T> {
    return trx ? work(trx) : this.db.transaction(work);
  }

  private insertVectorsSql(rows: number): string {
    const row = this.pgvector
      ? '(?, ?, ?, ?, ?, ?::real[], ?::vector)'
      : this.postgres
        ? '(?, ?, ?, ?, ?, ?::real[])'
        : '(?, ?, ?, ?, ?, ?)';
    const columns = `site_id, locale, model_key, doc_id, passage, vector${this.pgvector ? ', embedding' : ''}`;
    return `insert into semantic_vectors (${columns}) values ${new Array(rows).fill(row).join(', ')}`;
  }

  private vectorRow(
    siteId: string,
    locale: string,
    modelKey: string,
    docId: string,
    passage: number,
    vector: Float32Array,
  ): Knex.Value[] {
    if (!this.postgres) return [siteId, locale, modelKey, docId, passage, toBlob(vector)];
    const row: Knex.Value[] = [siteId, locale, modelKey, docId, passage, toPgArray(vector)];
    if (this.pgvector) row.push(toPgvector(vector));
    return row;
  }

  private vectorOf(value: unknown): Float32Array {
    return this.postgres ? fromPgArray(value) : fromBlob(value as Uint8Array);
  }

  /** Appended last in the write's transaction; on PostgreSQL after the lock that makes seq order commit order. */
  private async appendLog(q: Database, changes: Array<Omit<VectorChange, 'seq'>>): Promise<number> {
    if (changes.length === 0) return 0;
    if (this.postgres) await q.raw('select pg_advisory_xact_lock(?)', [VECTOR_LOG_LOCK]);
    const stamp = new Date().toISOString();
    for (const part of chunks(changes, CHANGE_ROWS))
      await q.raw(
        insertChangesSql(part.length),
        part.flatMap((c) => [c.siteId, c.locale, c.modelKey, c.docId, c.removed, stamp]),
      );
    const row = await q('semantic_vector_changes').max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0);
  }
}

/**
 * A document's score is its best passage's. Exact over real[]: the dot product of two normalised vectors is their
 * cosine, summed in double precision; pgvector's `<=>` is the cosine distance, 1 - cosine (a row written before
 * pgvector was there and not filled has none: last).
 */
export function nearestSql(pgvector: boolean): string {
  const similarity = pgvector
    ? '1 - (embedding <=> ?::vector)'
    : '(select sum(a::float8 * b) from unnest(vector, ?::real[]) as t(a, b))';
  return (
    `select doc_id, max(${similarity}) as score from semantic_vectors ` +
    'where site_id = ? and locale = ? and model_key = ? group by doc_id order by score desc nulls last, doc_id limit ?'
  );
}
