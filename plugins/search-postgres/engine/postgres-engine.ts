import { createHash, randomUUID } from 'node:crypto';
import type {
  EngineHit,
  EngineQuery,
  EngineResult,
  EngineSchema,
  EngineScope,
  FacetRequest,
  FieldFilter,
  FilterCondition,
  IndexableDocument,
  PersistentEngines,
  SearchEngine,
  SearchEngineFactory,
  TermDictionary,
} from '@vela/plugin-search/api';
import {
  checkBm25,
  checkDocument,
  checkPaging,
  checkSchema,
  classScores,
  compareStrings,
  DEFAULT_BM25,
  filterColumn,
  inverseDocumentFrequency,
  ownValue,
  phraseBonus,
  queryTerms,
  weightClass,
  weightedFrequencies,
} from '@vela/search-text';
import { type Knex, VelaError } from 'vela/plugin';

/**
 * A SearchEngine over PostgreSQL full-text search, so search processes keep no index in memory and every
 * process sharing the database answers from the same index (docs/ARCHITECTURE.md, "Search engines").
 *
 * One row per document of a (site, locale, field configuration) index in search_postgres_documents:
 *   - tsv: a tsvector built here, not by to_tsvector, from the same analyzer as the in-memory engine
 *     (@vela/search-text: NFC, lower case, split on non-letters/digits, no stemming, no accent folding), so a
 *     term matches in exactly the same documents. Each distinct term gets one position, its BM25F weight class + 1
 *     (five classes, as the memory engine), and a weight from that class (A = 0, B = 1, C = 2, D = 3 or 4): a
 *     weight-restricted tsquery ('term':A) then tells a term's class in the GIN-indexed match itself.
 *   - facet_terms (text[] of "field<US>value", GIN) for filtering, counting and grouping; numbers and strings
 *     as jsonb.
 *   - version and deleted_at: writes are fenced by the change-log seq (see upsert), removals leave tombstones.
 * A query is one SQL statement: the matching rows (text and the filters every consumer needs, in the scan's
 * WHERE so the GIN indexes serve them) are materialised once, narrow, then the total, the page, every facet's
 * counts (one pass over the rows' facet terms, a count column per distinct filter mask) and the groups are
 * computed from them; a page in indexing order is read straight from the (index_id, seq) index.
 * Relevance is the memory engine's BM25F (@vela/search-text's bm25f; ties in indexing order) but for three
 * things: classes 3 and 4 merged (four tsvector weights), no length normalisation (a row must not depend on
 * the averages of the index, so every process writes the same row for a document), and idf from the term
 * dictionary as of its last refresh. docs/BENCHMARKS.md ("PostgreSQL engine") has the plans.
 */

const DOCUMENTS = 'search_postgres_documents';
const INDEXES = 'search_postgres_indexes';
const MIN_PREFIX_LENGTH = 3;
const RESOLUTION = 5;
const MAX_GROUPS = 100;
/** PostgreSQL's limit on one lexeme (bytes); a longer term is left out of the tsvector. */
const MAX_LEXEME_BYTES = 2046;
/** Field and value in facet_terms: field names never hold it (they are identifiers). */
const SEPARATOR = '\u001f';
/** Rows per INSERT: 9 bindings each stays below PostgreSQL's 65535. */
const INSERT_CHUNK = 1000;
const WEIGHTS = ['A', 'B', 'C', 'D', 'D'];
/** A field's terms as they are, whatever the lengths of the index (see the class note). */
const NO_LENGTHS = () => undefined;
const FOREIGN_KEY_VIOLATION = '23503';
const TOMBSTONE_PURGE_EVERY_MS = 10 * 60_000;

export interface PostgresEngineOptions {
  /** As MemoryEngineOptions.prefixLastTerm: the default when a query does not say. */
  prefixLastTerm?: boolean;
  /** Quiet time after a write before the term dictionary (autocomplete, spell check) is read again. */
  termsRefreshMs?: number;
  /** As MemoryEngineOptions.k1. */
  k1?: number;
}

interface Compiled {
  sql: string;
  bindings: Knex.RawBinding[];
}

export class PostgresEngine implements SearchEngine {
  readonly schema: EngineSchema;
  private readonly prefixLastTerm: boolean;
  private readonly refreshMs: number;
  private readonly k1: number;
  private documentCount = 0;
  private dictionary: CachedDictionary = new CachedDictionary(0, 0, new Map(), []);
  private refreshTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private disposed = false;
  private purgedAt = 0;
  /** A write found the index dropped (see `written`). */
  gone = false;

  constructor(
    private readonly db: Knex,
    schema: EngineSchema,
    /** The index's row id, once its row exists. */
    readonly indexId: Promise<number>,
    options: PostgresEngineOptions = {},
    /** The site and locale, when the index is a scope's: a query finding it dropped looks for its replacement. */
    private readonly scope?: Pick<EngineScope, 'siteId' | 'locale'>,
  ) {
    this.schema = checkSchema(schema);
    this.prefixLastTerm = options.prefixLastTerm ?? false;
    this.refreshMs = options.termsRefreshMs ?? 250;
    checkBm25({ k1: options.k1 });
    this.k1 = options.k1 ?? DEFAULT_BM25.k1;
    // A failed insert of the index row surfaces at the first call that awaits it.
    indexId.catch(() => {});
  }

  get size(): number {
    return this.documentCount;
  }

  get terms(): TermDictionary {
    return this.dictionary;
  }

  async has(id: string): Promise<boolean> {
    const row = await this.db(DOCUMENTS)
      .where({ index_id: await this.indexId, doc_id: storable(id) })
      .whereNull('deleted_at')
      .first('doc_id');
    return row !== undefined;
  }

  /**
   * With `version` (the change-log seq the documents are current for), a row already holding a higher or equal
   * version, or a tombstone of one, is left as it is: a process that read a document before a later change
   * cannot put the older version back. Without it, the last write wins (tests, benchmarks).
   */
  async upsert(documents: IndexableDocument[], version?: number): Promise<void> {
    for (const document of documents) checkDocument(this.schema, document);
    checkVersion(version);
    const latest = new Map<string, IndexableDocument>();
    // ON CONFLICT cannot touch one row twice in a statement: the last version of an id wins, as in memory.
    for (const document of documents) latest.set(document.id, document);
    const indexId = await this.indexId;
    const rows = [...latest.values()].map((document) => ({ ...this.row(indexId, document), version: version ?? 0 }));
    const T = DOCUMENTS;
    // Unchanged rows are not rewritten: every process applies the same changes (docs/ARCHITECTURE.md).
    const when =
      version === undefined
        ? `${T}.deleted_at is not null or (${T}.tsv, ${T}.facet_terms, ${T}.numbers, ${T}.strings, ${T}.phrases)
             is distinct from (excluded.tsv, excluded.facet_terms, excluded.numbers, excluded.strings, excluded.phrases)`
        : `${T}.version < excluded.version`;
    await this.written(() =>
      this.db.transaction(async (trx) => {
        for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
          const insert = trx(DOCUMENTS)
            .insert(rows.slice(at, at + INSERT_CHUNK))
            .toSQL();
          // A document removed and added again goes to the end of the indexing order, as in memory.
          await trx.raw(
            `${insert.sql} on conflict (index_id, doc_id) do update set tsv = excluded.tsv, facet_terms = excluded.facet_terms,
               numbers = excluded.numbers, strings = excluded.strings, phrases = excluded.phrases,
               version = greatest(${T}.version, excluded.version), deleted_at = null,
               seq = case when ${T}.deleted_at is null then ${T}.seq else nextval(pg_get_serial_sequence('${T}', 'seq')) end
             where ${when}`,
            insert.bindings,
          );
        }
      }),
    );
  }

  /** With `version`, removals leave tombstones that fence older writes (see upsert); without, rows go. */
  async remove(ids: string[], version?: number): Promise<void> {
    if (ids.length === 0) return;
    checkVersion(version);
    const indexId = await this.indexId;
    const unique = [...new Set(ids.map(storable))];
    if (version === undefined) {
      await this.written(() =>
        this.db.raw(`delete from ${DOCUMENTS} where index_id = ? and doc_id = any(?::text[])`, [indexId, unique]),
      );
    } else {
      await this.written(() => this.tombstone(this.db, indexId, unique, version));
      await this.purgeTombstones(indexId);
    }
  }

  /** Tombstones for ids (the rows inserted when absent), unless a row holds this version or a later one. */
  private async tombstone(db: Knex, indexId: number, ids: string[], version: number): Promise<void> {
    const T = DOCUMENTS;
    for (let at = 0; at < ids.length; at += INSERT_CHUNK * 5) {
      await db.raw(
        `insert into ${T} (index_id, doc_id, version, deleted_at, tsv, facet_terms, numbers, strings, phrases)
         select ?, id, ?, now(), ''::tsvector, '{}', '{}', '{}', '{}' from unnest(?::text[]) id
         on conflict (index_id, doc_id) do update set version = excluded.version, deleted_at = coalesce(${T}.deleted_at, now()),
           tsv = excluded.tsv, facet_terms = excluded.facet_terms, numbers = excluded.numbers, strings = excluded.strings, phrases = excluded.phrases
         where ${T}.version < excluded.version`,
        [indexId, version, ids.slice(at, at + INSERT_CHUNK * 5)],
      );
    }
  }

  /**
   * Tombstones only fence writes of processes that read a document before its removal: an hour is far longer
   * than any indexer step. At most one purge per engine every ten minutes.
   */
  private async purgeTombstones(indexId: number): Promise<void> {
    const now = Date.now();
    if (now - this.purgedAt < TOMBSTONE_PURGE_EVERY_MS) return;
    this.purgedAt = now;
    await this.db.raw(`delete from ${DOCUMENTS} where index_id = ? and deleted_at < now() - interval '1 hour'`, [
      indexId,
    ]);
  }

  /**
   * A write into an index another process dropped (its site's fields changed) is moot: that process built the
   * index that replaced it, and this one reopens that index once it learns of the change.
   */
  private async written(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      this.gone = true;
      return;
    }
    await this.afterWrite();
  }

  /**
   * One statement. When the index is gone (another process rebuilt it after a field change this process has
   * not seen yet), the query runs once more on the index that replaced it if that one has the same columns,
   * else fails with a 503 the client may retry.
   */
  async query(query: EngineQuery): Promise<EngineResult> {
    checkPaging(query);
    checkBm25({ k1: query.k1 });
    for (const request of query.facets) this.requireFacet(request.field, 'facet counts');
    if (query.group !== undefined) this.requireFacet(query.group, 'group');
    // Ranked candidates were found elsewhere (by vectors): the text is not matched.
    const { terms, lastTypedLast } = query.ranked ? { terms: [], lastTypedLast: false } : queryTerms(query.text);
    // A term PostgreSQL cannot hold as a lexeme is in no document.
    if (terms.some((term) => Buffer.byteLength(term) > MAX_LEXEME_BYTES)) {
      // Compiled anyway: a bad filter or sort is refused as with any other text.
      this.compile(query, terms, false, 0);
      return emptyResult(query);
    }
    const prefixLast = (query.prefixLastTerm ?? this.prefixLastTerm) && lastTypedLast;
    let indexId = await this.indexId;
    for (let attempt = 0; ; attempt++) {
      const { sql, bindings, facetMasks } = this.compile(query, terms, prefixLast, indexId);
      const row = (await this.db.raw(sql, bindings)).rows[0] as Record<string, unknown>;
      if (row.live) return this.resultOf(query, row, facetMasks);
      const replacement = attempt === 0 ? await this.replacement() : null;
      if (replacement === null) {
        const error = new VelaError(
          'index_changed',
          "the site's search index was rebuilt for changed fields while this search ran; search again",
          503,
        );
        error.headers = { 'Retry-After': '1' };
        throw error;
      }
      indexId = replacement;
    }
  }

  /** The complete index of this engine's site and locale with the same columns, when one replaced this one. */
  private async replacement(): Promise<number | null> {
    if (!this.scope) return null;
    const row = await this.db(INDEXES)
      .where({ site_id: this.scope.siteId, locale: this.scope.locale })
      .whereNotNull('applied_seq')
      .whereRaw('schema = ?::jsonb', [JSON.stringify(this.schema)])
      .orderBy('id', 'desc')
      .first('id');
    return row ? Number(row.id) : null;
  }

  private compile(
    query: EngineQuery,
    terms: string[],
    prefixLast: boolean,
    indexId: number,
  ): Compiled & { facetMasks: number[] } {
    const filters = [...query.filter.and.filter(constrains), ...query.filter.or.filter(constrains)].map((filter) =>
      this.compileFilter(filter),
    );
    const andCount = query.filter.and.filter(constrains).length;
    // Conditions every consumer applies: in the scan, as the required filters.
    const conditions = (query.filter.require ?? []).map((condition) => this.compileCondition(condition));
    const order = this.orderOf(query.sort);
    const maskOf = (ignore: string[] | '*'): Mask => {
      const and: number[] = [];
      const or: number[] = [];
      if (ignore !== '*') {
        filters.forEach((filter, i) => {
          if (ignore.includes(filter.field)) return;
          (i < andCount ? and : or).push(i);
        });
      }
      return { and, or };
    };
    const main = maskOf([]);
    const facetMasks = query.facets.map((request) => maskOf(request.ignoreFilters));
    // Filters every consumer applies in its `and` part narrow the rows themselves, in the scan's WHERE, where the
    // GIN index on facet_terms serves them; the others become flag columns.
    const required = new Set(
      [main, ...facetMasks].reduce<number[] | null>(
        (common, mask) => (common === null ? mask.and : common.filter((i) => mask.and.includes(i))),
        null,
      )!,
    );
    const pass = (mask: Mask) => passSql(mask, required);
    const parts = terms.map((term, i) => ({
      term,
      prefix: prefixLast && i === terms.length - 1 && term.length >= MIN_PREFIX_LENGTH,
    }));
    const wantsTerms = query.facets.length > 0 || query.group !== undefined;
    const ranked = query.ranked ? rankedInOrder(query.ranked) : null;

    const bindings: Knex.RawBinding[] = [];
    const maskColumns: number[] = [];
    const scan = (alias: string): string => {
      let where = `${alias}.index_id = ? and ${alias}.deleted_at is null`;
      bindings.push(indexId);
      if (parts.length > 0) {
        where += ` and ${alias}.tsv @@ ?::tsquery`;
        bindings.push(parts.map(({ term, prefix }) => tsqueryTerm(term, prefix, '')).join(' & '));
      }
      for (const filter of [...[...required].map((i) => filters[i]!), ...conditions]) {
        where += ` and ${filter.sql.replaceAll('d.', `${alias}.`)}`;
        bindings.push(...filter.bindings);
      }
      return where;
    };

    // The rows every part reads, narrow (no document text), computed once. Ranked candidates take their place in
    // the order given as their seq, so ties of their score keep it.
    const columns = ['d.doc_id', ranked ? 'r.pos as seq' : 'd.seq'];
    if (parts.length > 0) {
      // Minus the score, so that lower ranks first as ever; each term's score for its class, then the bonus.
      const idfs = parts.map(({ term, prefix }) => inverseDocumentFrequency(this.size, this.frequencyOf(term, prefix)));
      const classCases = parts.map(({ term, prefix }, i) => {
        const scores = classScores(idfs[i]!, query.k1 ?? this.k1, WEIGHTS.length);
        bindings.push(
          tsqueryTerm(term, prefix, 'A'),
          scores[0]!,
          tsqueryTerm(term, prefix, 'AB'),
          scores[1]!,
          tsqueryTerm(term, prefix, 'ABC'),
          scores[2]!,
          scores[3]!,
        );
        return 'case when d.tsv @@ ?::tsquery then ?::float8 when d.tsv @@ ?::tsquery then ?::float8 when d.tsv @@ ?::tsquery then ?::float8 else ?::float8 end';
      });
      for (let i = 0; i + 1 < parts.length; i++) {
        classCases.push('case when d.phrases @> ?::text[] then ?::float8 else 0 end');
        bindings.push([`${parts[i]!.term} ${parts[i + 1]!.term}`], phraseBonus(idfs[i]!, idfs[i + 1]!));
      }
      columns.push(`-(${classCases.join(' + ')}) as rank`);
    } else if (ranked) {
      columns.push('-r.score as rank');
    } else {
      columns.push('0 as rank');
    }
    if (order.key) {
      columns.push(`${order.key.sql} as sortkey`);
      bindings.push(...order.key.bindings);
    }
    filters.forEach((filter, i) => {
      if (required.has(i)) return;
      columns.push(`coalesce(${filter.sql}, false) as f${i}`);
      bindings.push(...filter.bindings);
    });
    if (wantsTerms) columns.push('d.facet_terms');
    const selects: string[] = [];
    selects.push(`exists (select 1 from ${INDEXES} where id = ?) as live`);
    let from = `${DOCUMENTS} d`;
    if (ranked) {
      from += ' join unnest(?::text[], ?::float8[]) with ordinality r(id, score, pos) on r.id = d.doc_id';
      bindings.push(ranked.ids, ranked.scores);
    }
    const baseSql = `with base as materialized (select ${columns.join(', ')} from ${from} where ${scan('d')})`;
    // (Bindings are positional: the CTE's come first, then the select list's in order.)
    bindings.push(indexId);
    const mainSql = pass(main);
    selects.push(`(select count(*)::int from base where ${mainSql}) as total`);
    const orderBy = order.key ? `sortkey ${order.direction} nulls last, rank, seq` : 'rank, seq';
    if (parts.length === 0 && !ranked && !order.key && mainSql === 'true') {
      // Every row ranks alike: the page is the first rows in indexing order, read in order from the
      // (index_id, seq) index, the scan stopping at the page's end.
      selects.push(`(select coalesce(json_agg(json_build_array(h.doc_id, 0) order by h.seq), '[]'::json)
        from (select p.doc_id, p.seq from ${DOCUMENTS} p where ${scan('p')} order by p.seq limit ? offset ?) h) as hits`);
    } else {
      selects.push(`(select coalesce(json_agg(json_build_array(h.doc_id, h.rank) order by ${orderBy}), '[]'::json)
        from (select doc_id, rank, seq${order.key ? ', sortkey' : ''} from base where ${mainSql} order by ${orderBy} limit ? offset ?) h) as hits`);
    }
    bindings.push(query.limit, query.offset);
    if (query.facets.length > 0) {
      // Every facet in one pass over the rows' facet terms: one count column per distinct filter mask.
      const masks = [...new Set(facetMasks.map(pass))];
      const fields = [...new Set(query.facets.map((request) => request.field))];
      const counts = masks.map((mask) =>
        mask === 'true' ? 'count(*)::int' : `(count(*) filter (where ${mask}))::int`,
      );
      const onlyFields = fields.length < this.schema.facetFields.length;
      selects.push(`(select coalesce(json_agg(json_build_array(${['t', ...masks.map((_, k) => `c${k}`)].join(', ')})), '[]'::json) from
        (select t, ${counts.map((count, k) => `${count} as c${k}`).join(', ')} from base, unnest(base.facet_terms) t
         ${onlyFields ? 'where split_part(t, chr(31), 1) = any(?::text[])' : ''} group by t) x) as facets`);
      if (onlyFields) bindings.push(fields);
      maskColumns.push(...facetMasks.map((mask) => masks.indexOf(pass(mask))));
      query.facets.forEach((request, r) => {
        if (!request.allValues) return;
        selects.push(`(select coalesce(json_agg(distinct substr(t, ?)), '[]'::json) from ${DOCUMENTS} a, unnest(a.facet_terms) t
          where a.index_id = ? and a.deleted_at is null and starts_with(t, ?)) as all${r}`);
        bindings.push(request.field.length + 2, indexId, `${request.field}${SEPARATOR}`);
      });
    }
    if (query.group !== undefined) {
      selects.push(`(select coalesce(json_agg(json_build_array(g.v, g.total, g.hits) order by g.best, g.v), '[]'::json) from (
        select v, count(*)::int as total, min(pos) as best,
          coalesce(json_agg(json_build_array(doc_id, rank) order by pos) filter (where rn > ? and rn <= ?), '[]'::json) as hits
        from (select x.v, h.doc_id, h.rank, h.pos, row_number() over (partition by x.v order by h.pos) as rn
              from (select doc_id, rank, facet_terms, row_number() over (order by ${orderBy}) as pos from base where ${mainSql}) h,
                   lateral (select substr(t, ?) as v from unnest(h.facet_terms) t where starts_with(t, ?)) x) y
        group by v order by best, v limit ${MAX_GROUPS}) g) as groups`);
      bindings.push(query.offset, query.offset + query.limit, query.group.length + 2, `${query.group}${SEPARATOR}`);
    }
    return { sql: `${baseSql} select ${selects.join(', ')}`, bindings, facetMasks: maskColumns };
  }

  /** `facetMasks`: which count column of the facets row each facet request reads. */
  private resultOf(query: EngineQuery, row: Record<string, unknown>, facetMasks: number[]): EngineResult {
    const result: EngineResult = {
      total: row.total as number,
      hits: (row.hits as Array<[string, number]>).map(([id, rank]) => ({ id, rank })),
      facets: {},
    };
    if (query.facets.length > 0) {
      // [field<US>value, count per mask...]
      const byField = new Map<string, Array<[string, number[]]>>();
      for (const [term, ...counts] of row.facets as Array<[string, ...number[]]>) {
        const at = term.indexOf(SEPARATOR);
        const field = term.slice(0, at);
        const list = byField.get(field) ?? [];
        if (list.length === 0) byField.set(field, list);
        list.push([term.slice(at + 1), counts]);
      }
      query.facets.forEach((request, r) => {
        const mask = facetMasks[r]!;
        const counts = new Map<string, number>();
        for (const [value, perMask] of byField.get(request.field) ?? [])
          if (perMask[mask]! > 0) counts.set(value, perMask[mask]!);
        const all = request.allValues ? (row[`all${r}`] as string[]) : null;
        Object.defineProperty(result.facets, request.field, {
          value: facetValues(request, counts, all),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
    }
    if (query.group !== undefined) {
      result.groups = (row.groups as Array<[string, number, Array<[string, number]>]>).map(([value, total, hits]) => ({
        value,
        total,
        hits: hits.map(([id, rank]) => ({ id, rank })),
      }));
    }
    return result;
  }

  async vocabulary(): Promise<Iterable<[string, number]>> {
    const indexId = await this.indexId;
    const { rows } = await this.db.raw(`select word, ndoc::int as ndoc from ts_stat(?)`, [tsStatQuery(indexId)]);
    return (rows as Array<{ word: string; ndoc: number }>).map((row): [string, number] => [row.word, row.ndoc]);
  }

  async similar(
    terms: ReadonlyArray<readonly [term: string, weight: number]>,
    exclude: readonly string[],
    limit: number,
  ): Promise<EngineHit[]> {
    const usable = terms.filter(([term]) => term !== '' && Buffer.byteLength(term) <= MAX_LEXEME_BYTES);
    if (limit <= 0 || usable.length === 0) return [];
    const indexId = await this.indexId;
    // A term that weighs more in a document says more about it: its position is its weight class + 1.
    const { rows } = await this.db.raw(
      `select d.doc_id from ${DOCUMENTS} d
         cross join lateral unnest(d.tsv) u
         join unnest(?::text[], ?::float8[]) w(term, weight) on w.term = u.lexeme
       where d.index_id = ? and d.tsv @@ ?::tsquery and not (d.doc_id = any(?::text[]))
       group by d.doc_id, d.seq
       having sum(w.weight * (${RESOLUTION} - (u.positions[1] - 1)) / ${RESOLUTION}) > 0
       order by sum(w.weight * (${RESOLUTION} - (u.positions[1] - 1)) / ${RESOLUTION}) desc, d.seq
       limit ?`,
      [
        usable.map(([term]) => term),
        usable.map(([, weight]) => weight),
        indexId,
        usable.map(([term]) => tsqueryTerm(term, false, '')).join(' | '),
        exclude.map(storable),
        limit,
      ],
    );
    return (rows as Array<{ doc_id: string }>).map((row, rank) => ({ id: row.doc_id, rank }));
  }

  async exportSnapshot(): Promise<Buffer> {
    throw new Error('the PostgreSQL search engine keeps its index in the database: it has no snapshot');
  }

  /** Reads the term dictionary and the size again now (they are otherwise refreshed shortly after writes). */
  async refresh(): Promise<void> {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    // One refresh at a time; a refresh asked for while one runs follows it, so it sees every earlier write.
    const previous = this.refreshing ?? Promise.resolve();
    const next = previous.then(() => this.readDictionary());
    const settled: Promise<void> = next.then(
      () => {},
      () => {},
    );
    this.refreshing = settled;
    void settled.then(() => {
      if (this.refreshing === settled) this.refreshing = null;
    });
    return next;
  }

  /** Stops refreshing (the engine was replaced or its index dropped). */
  dispose(): void {
    this.disposed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
  }

  private async readDictionary(): Promise<void> {
    if (this.disposed) return;
    const indexId = await this.indexId;
    const [terms, phrases, count] = await Promise.all([
      this.db.raw(`select word, ndoc::int as ndoc from ts_stat(?)`, [tsStatQuery(indexId)]),
      this.db.raw(`select p, count(*)::int as n from ${DOCUMENTS}, unnest(phrases) p where index_id = ? group by p`, [
        indexId,
      ]),
      this.db(DOCUMENTS)
        .where({ index_id: indexId })
        .whereNull('deleted_at')
        .count<Array<{ count: string }>>('* as count'),
    ]);
    const frequencies = new Map<string, number>();
    for (const row of terms.rows as Array<{ word: string; ndoc: number }>) frequencies.set(row.word, row.ndoc);
    const phraseList = (phrases.rows as Array<{ p: string; n: number }>).map((row): [string, number] => [row.p, row.n]);
    phraseList.sort((a, b) => compareStrings(a[0], b[0]));
    this.documentCount = Number(count[0]!.count);
    this.dictionary = new CachedDictionary(this.dictionary.generation + 1, this.documentCount, frequencies, phraseList);
  }

  private async afterWrite(): Promise<void> {
    const indexId = await this.indexId;
    const count = await this.db(DOCUMENTS)
      .where({ index_id: indexId })
      .whereNull('deleted_at')
      .count<Array<{ count: string }>>('* as count');
    this.documentCount = Number(count[0]!.count);
    // ts_stat reads every tsvector of the index, so a burst of writes (an import) refreshes once after it.
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    if (this.disposed) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      this.refresh().catch(() => {
        // Autocomplete and spell check keep the previous dictionary; the next write tries again.
      });
    }, this.refreshMs);
    this.refreshTimer.unref();
  }

  private row(indexId: number, document: IndexableDocument): Record<string, unknown> {
    const facetTerms: string[] = [];
    for (const field of this.schema.facetFields) {
      const values = [...new Set((ownValue(document.facets, field) ?? []).map(storable))];
      for (const value of values) facetTerms.push(`${field}${SEPARATOR}${value}`);
    }
    const numbers: Record<string, number> = {};
    for (const field of this.schema.numberFields) {
      const value = ownValue(document.numbers, field);
      if (typeof value === 'number' && Number.isFinite(value)) numbers[field] = value;
    }
    const strings: Record<string, string> = {};
    for (const field of this.schema.stringFields) {
      const value = ownValue(document.strings, field);
      if (typeof value === 'string') strings[field] = storable(value);
    }
    return {
      index_id: indexId,
      doc_id: storable(document.id),
      tsv: tsvectorOf(document),
      facet_terms: facetTerms,
      numbers: JSON.stringify(numbers),
      strings: JSON.stringify(strings),
      phrases: [...new Set((document.phrases ?? []).map(storable))],
    };
  }

  private compileCondition(condition: FilterCondition): Compiled {
    if ('filter' in condition) return this.compileFilter(condition.filter);
    const parts = ('all' in condition ? condition.all : 'any' in condition ? condition.any : condition.none).map(
      (part) => this.compileCondition(part),
    );
    const joined = parts.map((part) => part.sql).join('all' in condition ? ' and ' : ' or ');
    const sql = parts.length === 0 ? ('any' in condition ? 'false' : 'true') : `(${joined})`;
    return {
      sql: 'none' in condition && parts.length > 0 ? `(not ${sql})` : sql,
      bindings: parts.flatMap((part) => part.bindings),
    };
  }

  private compileFilter(filter: FieldFilter): Compiled & { field: string } {
    const inner = this.compileValues(filter);
    if (!filter.matchMissing) return { field: filter.field, ...inner };
    const missing = this.missingSql(filter.field);
    return {
      field: filter.field,
      sql: `(${inner.sql} or ${missing.sql})`,
      bindings: [...inner.bindings, ...missing.bindings],
    };
  }

  private missingSql(field: string): Compiled {
    if (this.schema.facetFields.includes(field)) {
      return {
        sql: 'not exists (select 1 from unnest(d.facet_terms) t where starts_with(t, ?))',
        bindings: [`${field}${SEPARATOR}`],
      };
    }
    if (this.schema.numberFields.includes(field)) return { sql: '(d.numbers -> ?) is null', bindings: [field] };
    if (this.schema.stringFields.includes(field)) return { sql: '(d.strings -> ?) is null', bindings: [field] };
    return { sql: 'true', bindings: [] };
  }

  /** The same rules and errors as the memory engine's filters (filter-masks.ts). */
  private compileValues(filter: FieldFilter): Compiled {
    const all = filter.itemOp === 'AND';
    const has = {
      facet: this.schema.facetFields.includes(filter.field),
      number: this.schema.numberFields.includes(filter.field),
      string: this.schema.stringFields.includes(filter.field),
    };
    // No column: no document has a value for the field (FilterSpec).
    if (!has.facet && !has.number && !has.string) return { sql: 'false', bindings: [] };
    const read = filterColumn(filter, has);
    if (read.column === 'facet') {
      const values = [...new Set(filter.values.map((value) => `${filter.field}${SEPARATOR}${storable(value)}`))];
      return { sql: `(d.facet_terms ${all ? '@>' : '&&'} ?::text[])`, bindings: [values] };
    }
    if (read.column === 'number') {
      const bindings: Knex.RawBinding[] = [];
      const tests = read.ranges.map(([low, high]) => {
        if (!(low <= high)) return 'false';
        const parts = ['(d.numbers ->> ?)::float8 is not null'];
        bindings.push(filter.field);
        if (low !== -Infinity) {
          parts.push('(d.numbers ->> ?)::float8 >= ?');
          bindings.push(filter.field, low);
        }
        if (high !== Infinity) {
          parts.push('(d.numbers ->> ?)::float8 <= ?');
          bindings.push(filter.field, high);
        }
        return `(${parts.join(' and ')})`;
      });
      return { sql: `(${tests.join(all ? ' and ' : ' or ')})`, bindings };
    }
    const distinct = [...new Set(filter.values.map(storable))];
    // A document has one value, so it cannot carry two different ones.
    if (all && distinct.length > 1) return { sql: 'false', bindings: [] };
    return { sql: '((d.strings ->> ?) = any(?::text[]))', bindings: [filter.field, distinct] };
  }

  private orderOf(sort: EngineQuery['sort']): { key: Compiled | null; direction: 'asc' | 'desc' } {
    if (sort.by === 'relevance') return { key: null, direction: 'asc' };
    if (sort.by === 'number') {
      if (!this.schema.numberFields.includes(sort.field))
        throw new Error(`sort by "${sort.field}": the engine schema has no such number field`);
      return { key: { sql: '(d.numbers ->> ?)::float8', bindings: [sort.field] }, direction: sort.direction };
    }
    if (!this.schema.stringFields.includes(sort.field))
      throw new Error(`sort by "${sort.field}": the engine schema has no such string field`);
    // Byte order of UTF-8, which is code point order: the memory engine's UTF-16 order but for characters
    // past U+FFFF against U+E000..U+FFFF.
    return { key: { sql: '((d.strings ->> ?) collate "C")', bindings: [sort.field] }, direction: sort.direction };
  }

  /** Documents with the term, or with a term it starts (counted once per term), as of the last refresh. */
  private frequencyOf(term: string, prefix: boolean): number {
    if (!prefix) return this.dictionary.documentFrequency(term);
    const sorted = this.dictionary.sortedTerms();
    let frequency = 0;
    const from = lowerBound(sorted.length, (at) => sorted[at]!, term);
    for (let at = from; at < sorted.length && sorted[at]!.startsWith(term); at++)
      frequency += this.dictionary.documentFrequency(sorted[at]!);
    return frequency;
  }

  private requireFacet(field: string, use: string): void {
    if (!this.schema.facetFields.includes(field))
      throw new Error(`${use} on "${field}": the engine schema has no such facet field`);
  }
}

/** The dictionary as last read from the database: what autocomplete and spell check see between refreshes. */
class CachedDictionary implements TermDictionary {
  private sorted: string[] | null = null;

  constructor(
    readonly generation: number,
    readonly documents: number,
    private readonly frequencies: Map<string, number>,
    /** [phrase, frequency] in code-unit order. */
    private readonly phrases: Array<[string, number]>,
  ) {}

  documentFrequency(term: string): number {
    return this.frequencies.get(term) ?? 0;
  }

  sortedTerms(): readonly string[] {
    this.sorted ??= [...this.frequencies.keys()].sort(compareStrings);
    return this.sorted;
  }

  phraseFrequency(phrase: string): number {
    const at = this.lowerBound(phrase);
    return at < this.phrases.length && this.phrases[at]![0] === phrase ? this.phrases[at]![1] : 0;
  }

  forEachPhrase(prefix: string, visit: (phrase: string, frequency: number) => boolean | undefined): void {
    for (let at = this.lowerBound(prefix); at < this.phrases.length; at++) {
      const [phrase, frequency] = this.phrases[at]!;
      if (!phrase.startsWith(prefix) || visit(phrase, frequency) === false) return;
    }
  }

  private lowerBound(value: string): number {
    return lowerBound(this.phrases.length, (at) => this.phrases[at]![0], value);
  }
}

interface Mask {
  and: number[];
  or: number[];
}

/**
 * The FilterSpec rule over the filter columns f<i> of base (filter-masks.ts `passes`): every `and` filter and
 * some `or` filter. A `required` filter held in the scan itself is true of every row (it is in every mask's `and`).
 */
function passSql(mask: Mask, required: ReadonlySet<number>): string {
  const and = mask.and.filter((i) => !required.has(i));
  const parts: string[] = [];
  if (and.length > 0) parts.push(`(${and.map((i) => `f${i}`).join(' and ')})`);
  if (mask.or.length > 0) parts.push(`(${mask.or.map((i) => `f${i}`).join(' or ')})`);
  return parts.length > 0 ? parts.join(' and ') : 'true';
}

/** facet-values.ts over counts from SQL: sorted, cut to the limit, then the included values added. */
function facetValues(
  request: FacetRequest,
  counts: Map<string, number>,
  allValues: string[] | null,
): Array<[string, number]> {
  const candidates = new Map(counts);
  for (const value of allValues ?? []) if (!candidates.has(value)) candidates.set(value, 0);
  const byCount = request.sort === 'count';
  const order = byCount
    ? (a: [string, number], b: [string, number]) => b[1] - a[1] || compareStrings(a[0], b[0])
    : (a: [string, number], b: [string, number]) => compareStrings(a[0], b[0]);
  const sorted = [...candidates].sort(order);
  const out = request.limit > 0 ? sorted.slice(0, request.limit) : sorted;
  const missing = (request.include ?? []).filter((value) => !out.some(([kept]) => kept === value));
  if (missing.length === 0) return out;
  for (const value of new Set(missing)) out.push([value, counts.get(value) ?? 0]);
  return out.sort(order);
}

/** tsvector input: each distinct term once, at position class + 1 with the class's weight. */
function tsvectorOf(document: IndexableDocument): string {
  const fields = document.fields ?? [{ name: '', text: document.text, boost: 1 }];
  const parts: string[] = [];
  for (const [term, weight] of weightedFrequencies(fields, NO_LENGTHS)) {
    if (Buffer.byteLength(term) > MAX_LEXEME_BYTES) continue;
    const c = weightClass(weight, RESOLUTION);
    parts.push(`${quoteLexeme(term)}:${c + 1}${WEIGHTS[c]}`);
  }
  return parts.join(' ');
}

/** The first of `length` strings in code-unit order (the one at `at` is keyAt(at)) not below `value`. */
function lowerBound(length: number, keyAt: (at: number) => string, value: string): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyAt(middle) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One tsquery operand: the exact term, or every term it starts, restricted to these weights. */
function tsqueryTerm(term: string, prefix: boolean, weights: string): string {
  const suffix = `${prefix ? '*' : ''}${weights}`;
  return suffix === '' ? quoteLexeme(term) : `${quoteLexeme(term)}:${suffix}`;
}

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** ts_stat's argument: the index id is an integer from our own table, so inlining it is safe. */
function tsStatQuery(indexId: number): string {
  if (!Number.isSafeInteger(indexId)) throw new Error(`bad index id ${indexId}`);
  return `select tsv from ${DOCUMENTS} where index_id = ${indexId} and deleted_at is null`;
}

/** PostgreSQL text cannot hold NUL: it becomes U+FFFD, in stored values and filter values alike. */
function storable(value: string): string {
  return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

function checkVersion(version: number | undefined): void {
  if (version !== undefined && !(Number.isSafeInteger(version) && version >= 0))
    throw new Error(`write version must be an integer ≥ 0, got ${version}`);
}

/**
 * EngineQuery.ranked as the two arrays a query binds, best first: each id once (at its first place), sorted by score
 * (higher first; the sort is stable, so ties keep the order given).
 */
function rankedInOrder(ranked: NonNullable<EngineQuery['ranked']>): { ids: string[]; scores: number[] } {
  const seen = new Set<string>();
  const unique: Array<{ id: string; score: number }> = [];
  for (const { id, score } of ranked) {
    if (!Number.isFinite(score)) throw new Error(`ranked: the score of "${id}" must be a finite number, got ${score}`);
    const stored = storable(id);
    if (seen.has(stored)) continue;
    seen.add(stored);
    unique.push({ id: stored, score });
  }
  unique.sort((a, b) => b.score - a.score);
  return { ids: unique.map((c) => c.id), scores: unique.map((c) => c.score) };
}

/** What a query finds in an index without the documents it asks for. */
function emptyResult(query: EngineQuery): EngineResult {
  return {
    total: 0,
    hits: [],
    facets: Object.fromEntries(query.facets.map((request) => [request.field, facetValues(request, new Map(), null)])),
    ...(query.group === undefined ? {} : { groups: [] }),
  };
}

function constrains(filter: FieldFilter): boolean {
  return filter.values.length > 0 || (filter.ranges?.length ?? 0) > 0;
}

const scopeKey = (scope: EngineScope) => createHash('sha256').update(scope.indexKey).digest('hex');

/**
 * Engines over PostgreSQL (the search plugin's `"engine": "postgres"`): `db` must be a PostgreSQL knex with
 * this plugin's migrations applied. Without a scope, create() makes an index of its own (tests,
 * benchmarks); with one, every process opens the same index.
 */
export function createPostgresEngineFactory(
  db: Knex,
  options: PostgresEngineOptions = {},
): SearchEngineFactory & { persistent: PersistentEngines } {
  if (db.client.dialect !== 'postgresql') throw new Error('the PostgreSQL search engine needs a PostgreSQL database');
  const indexRow = async (scope: EngineScope | undefined, schema: EngineSchema): Promise<number> => {
    const key = scope ? scopeKey(scope) : `anonymous:${randomUUID()}`;
    const fields = { site_id: scope?.siteId ?? '', locale: scope?.locale ?? '', index_key: key };
    await db(INDEXES)
      .insert({ ...fields, schema: JSON.stringify(schema) })
      .onConflict(['site_id', 'locale', 'index_key'])
      .ignore();
    const row = await db(INDEXES).where(fields).first('id');
    return Number(row.id);
  };
  const engineOf = (schema: EngineSchema, id: Promise<number>, scope?: EngineScope) =>
    new PostgresEngine(db, schema, id, options, scope);
  const persistent: PersistentEngines = {
    async open(scope, schema) {
      const row = await db(INDEXES)
        .where({ site_id: scope.siteId, locale: scope.locale, index_key: scopeKey(scope) })
        .first('id', 'applied_seq');
      // A row without a mark is an index whose first filling never finished.
      if (!row || row.applied_seq === null) return null;
      const engine = engineOf(schema, Promise.resolve(Number(row.id)), scope);
      await engine.refresh();
      return { engine, appliedSeq: Number(row.applied_seq) };
    },
    async markApplied(engines, seq) {
      const ids = await Promise.all(
        engines.filter((engine) => engine instanceof PostgresEngine).map((engine) => engine.indexId),
      );
      if (ids.length === 0) return;
      await db.raw(
        `update ${INDEXES} set applied_seq = greatest(coalesce(applied_seq, 0), ?) where id = any(?::int[])`,
        [seq, ids],
      );
    },
    async drop(siteId, locale, keep) {
      // Documents go with the index row (on delete cascade).
      await db(INDEXES)
        .where({ site_id: siteId })
        .modify((q) => {
          if (locale !== undefined) q.andWhere({ locale });
          if (keep !== undefined) q.andWhereNot({ index_key: scopeKey(keep) });
        })
        .delete();
    },
    async retainOnly(engine, keep, version) {
      if (!(engine instanceof PostgresEngine)) return;
      const indexId = await engine.indexId;
      const kept = [...keep].map(storable);
      if (version === undefined) {
        await db.raw(`delete from ${DOCUMENTS} where index_id = ? and not (doc_id = any(?::text[]))`, [indexId, kept]);
      } else {
        // A row written for a later change than the scan's (by another process, during it) stays.
        const stale = await db.raw(
          `select doc_id from ${DOCUMENTS} where index_id = ? and deleted_at is null and version < ? and not (doc_id = any(?::text[]))`,
          [indexId, version, kept],
        );
        await engine.remove(
          (stale.rows as Array<{ doc_id: string }>).map((row) => row.doc_id),
          version,
        );
      }
      await engine.refresh();
    },
  };
  return {
    create: (schema, scope) => {
      const engine = engineOf(schema, indexRow(scope, schema), scope);
      engine.refresh().catch(() => {});
      return engine;
    },
    restore: async () => {
      throw new Error('the PostgreSQL search engine keeps its index in the database: it restores no snapshot');
    },
    persistent,
  };
}
