import { cachedBy, chunks, type Database, nowIso, readJson, valuesRows, writeJson } from 'vela/plugin';

/**
 * A document's state in its source:
 * INDEXED: the search service accepted its current version; IGNORED: an IGNORE rule matched (and it
 * was de-indexed); ERROR: reading or sending it failed (retried next run).
 */
export type DocumentStatus = 'INDEXED' | 'IGNORED' | 'ERROR';

export interface StatusRecord {
  id: number;
  objectId: string;
  source: string;
  status: DocumentStatus;
  checksum: string | null;
  locale: string;
  sites: string[];
  error: string | null;
  transactionId: string | null;
  created: string;
  modificationDate: string;
}

/** What a run compares a document with: its last status and checksum, and where it was sent. */
export interface RecordedState {
  status: DocumentStatus;
  checksum: string | null;
  locale: string;
  /** The sites as stored (JSON text): parsed only when they differ from the source's. */
  sites: string;
}

export interface StatusUpdate {
  objectId: string;
  status: DocumentStatus;
  checksum: string | null;
  locale: string;
  sites: string[];
  error: string | null;
}

export interface StatusFilter {
  source?: string;
  statuses?: string[];
  objectId?: string;
  locale?: string;
  site?: string;
}

interface Row {
  id: number;
  source: string;
  object_id: string;
  status: DocumentStatus;
  checksum: string | null;
  locale: string;
  sites: string;
  error: string | null;
  run_id: string | null;
  created_at: string;
  modified_at: string;
}

const TABLE = 'connector_documents';

/**
 * Rows per upsert of status records. A run records every batch it sends, and the profile of a full run showed
 * knex building each statement (a compound SELECT of 300 rows for SQLite) costing as much as the rows; plain
 * multi-row VALUES, its text built once per row count, take a batch in one statement, and the values every row
 * shares (source, run, time) are bound once: binding is most of what is left. 1,000 rows of 6 values stay far
 * under SQLite's 32,766 variables and PostgreSQL's 65,535 parameters.
 */
const RECORD_ROWS = 1000;

/**
 * The upsert of `rows` records: bound first the source, run id and time (created, modified), then per row the
 * object id, status, checksum, locale, sites and error. In the form SQLite (3.24 and later) and PostgreSQL share:
 * both name a VALUES list's columns column1, column2…, and SQLite needs the WHERE to read ON CONFLICT as the upsert.
 */
const upsertRecordsSql = cachedBy(
  (rows) =>
    `insert into ${TABLE} (source, object_id, status, checksum, locale, sites, error, run_id, created_at, modified_at) ` +
    `select ?, v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, ?, ?, ? from (values ${valuesRows(6, rows)}) as v where true ` +
    'on conflict (source, object_id) do update set status = excluded.status, checksum = excluded.checksum, locale = excluded.locale, ' +
    'sites = excluded.sites, error = excluded.error, run_id = excluded.run_id, modified_at = excluded.modified_at',
);

/**
 * What upserting the updates one after the other leaves: each object once, where it came first (so rows are
 * created in the same order), with its last update. (One statement must not name a row twice: PostgreSQL
 * refuses to update a row a second time in one ON CONFLICT.)
 */
function lastPerObject(updates: StatusUpdate[]): StatusUpdate[] {
  const last = new Map<string, StatusUpdate>();
  for (const u of updates) last.set(u.objectId, u);
  if (last.size === updates.length) return updates;
  const out: StatusUpdate[] = [];
  for (const u of updates) {
    const final = last.get(u.objectId);
    if (final === undefined) continue;
    out.push(final);
    last.delete(u.objectId);
  }
  return out;
}

/** The sites column of a record, named `<source>/<object id>` when it is corrupt. */
const sitesOf = (r: Pick<Row, 'source' | 'object_id' | 'sites'>): string[] =>
  readJson<string[]>(r.sites, { table: TABLE, column: 'sites', row: `${r.source}/${r.object_id}` });

const fromRow = (r: Row): StatusRecord => ({
  id: Number(r.id),
  objectId: r.object_id,
  source: r.source,
  status: r.status,
  checksum: r.checksum,
  locale: r.locale,
  sites: sitesOf(r),
  error: r.error,
  transactionId: r.run_id,
  created: r.created_at,
  modificationDate: r.modified_at,
});

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The indexing status of every document of every source (the monitoring records). */
export class StatusStore {
  constructor(private readonly db: Database) {}

  /** objectId → what was last recorded, for comparing a run with the previous one. */
  async snapshot(source: string, objectIds?: readonly string[]): Promise<Map<string, RecordedState>> {
    const out = new Map<string, RecordedState>();
    const read = async (ids?: string[]) => {
      const query = this.db<Row>(TABLE).select('object_id', 'status', 'checksum', 'locale', 'sites').where({ source });
      if (ids) query.whereIn('object_id', ids);
      for (const r of (await query) as Row[])
        out.set(r.object_id, { status: r.status, checksum: r.checksum, locale: r.locale, sites: r.sites });
    };
    if (objectIds) for (const part of chunks([...objectIds], 500)) await read(part);
    else await read();
    return out;
  }

  /** Insert or update the records of a batch, in one statement (one transaction when it takes several). */
  async record(source: string, runId: string, updates: StatusUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const stamp = nowIso();
    const parts = chunks(lastPerObject(updates), RECORD_ROWS);
    // A run's updates mostly share one sites array (the source's): its JSON is written once.
    let sites: readonly string[] | null = null;
    let sitesJson = '';
    const write = async (db: Database, part: StatusUpdate[]) => {
      const bindings: Array<string | null> = [source, runId, stamp, stamp];
      for (const u of part) {
        if (u.sites !== sites) {
          sites = u.sites;
          sitesJson = writeJson(sites);
        }
        bindings.push(u.objectId, u.status, u.checksum, u.locale, sitesJson, u.error ?? null);
      }
      await db.raw(upsertRecordsSql(part.length), bindings);
    };
    if (parts.length === 1) await write(this.db, parts[0]!);
    else
      await this.db.transaction(async (trx) => {
        for (const part of parts) await write(trx, part);
      });
  }

  async remove(source: string, objectIds: string[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      for (const part of chunks(objectIds, 500)) await trx(TABLE).where({ source }).whereIn('object_id', part).delete();
    });
  }

  /**
   * Forget the checksums of these records (all of the source's without ids), keeping the records: the next
   * run sends those documents again, and still de-indexes the ones that vanished.
   */
  async forgetChecksums(source: string, objectIds?: string[]): Promise<void> {
    if (!objectIds) {
      await this.db(TABLE).where({ source }).update({ checksum: null });
      return;
    }
    await this.db.transaction(async (trx) => {
      for (const part of chunks(objectIds, 500))
        await trx(TABLE).where({ source }).whereIn('object_id', part).update({ checksum: null });
    });
  }

  async removeSource(source: string): Promise<void> {
    await this.db(TABLE).where({ source }).delete();
  }

  /** Records of a source to de-index: object id, locale and sites. */
  async targets(
    source: string,
    objectIds?: string[],
  ): Promise<Array<{ objectId: string; locale: string; sites: string[]; status: DocumentStatus }>> {
    const rows: Row[] = [];
    if (objectIds)
      for (const part of chunks(objectIds, 500))
        rows.push(...((await this.db<Row>(TABLE).select().where({ source }).whereIn('object_id', part)) as Row[]));
    else rows.push(...((await this.db<Row>(TABLE).select().where({ source })) as Row[]));
    return rows.map((r) => ({ objectId: r.object_id, locale: r.locale, sites: sitesOf(r), status: r.status }));
  }

  async latest(source: string | undefined, limit: number): Promise<StatusRecord[]> {
    const query = this.db<Row>(TABLE).select().orderBy('modified_at', 'desc').orderBy('id', 'desc').limit(limit);
    if (source !== undefined) query.where({ source });
    return ((await query) as Row[]).map(fromRow);
  }

  async byObjectIds(objectIds: string[]): Promise<StatusRecord[]> {
    const out: StatusRecord[] = [];
    for (const part of chunks(objectIds, 500))
      out.push(
        ...(
          (await this.db<Row>(TABLE)
            .select()
            .whereIn('object_id', part)
            .orderBy('source')
            .orderBy('object_id')) as Row[]
        ).map(fromRow),
      );
    return out;
  }

  async sources(): Promise<string[]> {
    return ((await this.db(TABLE).distinct('source').orderBy('source')) as Array<{ source: string }>).map(
      (r) => r.source,
    );
  }

  async search(filter: StatusFilter, page: number, size: number): Promise<{ content: StatusRecord[]; total: number }> {
    const where = (query: ReturnType<Database>) => {
      if (filter.source) query.where({ source: filter.source });
      if (filter.statuses && filter.statuses.length > 0) query.whereIn('status', filter.statuses);
      if (filter.locale) query.where({ locale: filter.locale });
      if (filter.objectId)
        query.whereRaw("lower(object_id) like ? escape '\\'", [`%${likeEscape(filter.objectId.toLowerCase())}%`]);
      if (filter.site) query.whereRaw("sites like ? escape '\\'", [`%${likeEscape(JSON.stringify(filter.site))}%`]);
      return query;
    };
    const countRow = await where(this.db(TABLE)).count({ n: '*' }).first();
    const rows = (await where(this.db(TABLE))
      .select()
      .orderBy('modified_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page * size)
      .limit(size)) as Row[];
    return { content: rows.map(fromRow), total: Number((countRow as { n?: unknown } | undefined)?.n ?? 0) };
  }

  /** Documents per status of a source. */
  async counts(source: string): Promise<Record<string, number>> {
    const rows = (await this.db(TABLE)
      .select('status')
      .count({ n: '*' })
      .where({ source })
      .groupBy('status')) as Array<{ status: string; n: number | string }>;
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** Object ids of a source not ignored (what the search index should hold), per locale and site. */
  async expected(source: string): Promise<Array<{ objectId: string; locale: string; sites: string[] }>> {
    const rows = (await this.db<Row>(TABLE)
      .select('object_id', 'locale', 'sites')
      .where({ source })
      .andWhere('status', 'INDEXED')) as Row[];
    return rows.map((r) => ({ objectId: r.object_id, locale: r.locale, sites: sitesOf({ ...r, source }) }));
  }

  /**
   * Object ids of a source starting with `prefix` and/or among `ids`, at most `limit`, in id order. LIKE narrows
   * the rows (it ignores case on SQLite), the exact prefix is checked here.
   */
  async idsOf(source: string, query: { prefix?: string; ids?: readonly string[]; limit: number }): Promise<string[]> {
    const { prefix } = query;
    const read = async (part?: readonly string[]) => {
      const select = this.db(TABLE).select('object_id').where({ source });
      if (part) select.whereIn('object_id', part);
      if (prefix) select.whereRaw("object_id like ? escape '\\'", [`${likeEscape(prefix)}%`]);
      return ((await select) as Array<{ object_id: string }>)
        .map((r) => r.object_id)
        .filter((id) => !prefix || id.startsWith(prefix));
    };
    const found: string[] = [];
    if (!query.ids) found.push(...(await read()));
    else for (const part of chunks([...query.ids], 500)) found.push(...(await read(part)));
    return found.sort().slice(0, query.limit);
  }

  /** Every tracked object id (of any source), for telling a source's documents from others in a site. */
  async trackedIds(): Promise<Set<string>> {
    return new Set(
      ((await this.db(TABLE).select('object_id')) as Array<{ object_id: string }>).map((r) => r.object_id),
    );
  }
}
