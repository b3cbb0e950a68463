import type { TextField } from '@vela/search-text';

/**
 * The search engine behind the search service, one instance per site + locale. It knows documents
 * only as an id, a combined text (and its fields), facet values and sortable values; everything Vela-specific
 * (links, operators, spotlights, highlighting) lives above it. See ../../../docs/ARCHITECTURE.md.
 */

/** What the engine indexes of one document. */
export interface IndexableDocument {
  id: string;
  /** Combined searchable text (title, abstract, text and the other text/string fields). */
  text: string;
  /**
   * The same text by field, each with its boost and length normalisation, for relevance (BM25F, see
   * @vela/search-text's bm25f); without it `text` is one field of boost 1.
   */
  fields?: TextField[];
  /** Facet field → its values (a single-valued field has at most one). Values are compared exactly. */
  facets: Record<string, string[]>;
  /** Numeric sort/range field → value (DATE as epoch milliseconds); null when absent. */
  numbers: Record<string, number | null>;
  /** String sort field → value; null when absent. */
  strings: Record<string, string | null>;
  /** Phrases the document offers to autocomplete ("word next-word"; see suggest/phrases.ts); kept as given. */
  phrases?: string[];
}

/** Which fields the engine keeps columns for; changing it means a rebuild. */
export interface EngineSchema {
  facetFields: string[];
  numberFields: string[];
  stringFields: string[];
}

/** Values of one field a document must carry: any of them (OR) or all of them (AND). */
export interface FieldFilter {
  field: string;
  /** Exact facet values. */
  values: string[];
  /** Inclusive numeric ranges over a number field (null = open end). */
  ranges?: Array<[number | null, number | null]>;
  itemOp: 'AND' | 'OR';
  /** Also let through documents that have no value at all for the field (targeting rules). */
  matchMissing?: boolean;
}

/**
 * A document passes when every `and` filter passes AND some `or` filter passes; a part with no filters is left
 * out, and no filters at all lets every document pass. It must also meet every `require`
 * condition, which no facet count ignores (targeting rules). A filter on a field the engine has no column for
 * matches no document (nobody has a value for it), as a Solr filter on a field no document has.
 */
export interface FilterSpec {
  and: FieldFilter[];
  or: FieldFilter[];
  require?: FilterCondition[];
}

/**
 * A filter, or every (`all`) or some (`any`) of several conditions, or none of them (`none`). A filter here is never
 * left out: one with `itemOp` OR and no values or ranges matches no document (with `matchMissing`: the documents
 * without the field).
 */
export type FilterCondition =
  | { filter: FieldFilter }
  | { all: FilterCondition[] }
  | { any: FilterCondition[] }
  | { none: FilterCondition[] };

export interface FacetRequest {
  field: string;
  /** Filters left out when counting this facet: none, the ones on these fields, or all ('*'). */
  ignoreFilters: string[] | '*';
  /** Keep at most this many values (after sorting); 0 = all. */
  limit: number;
  /** By count (desc, ties by value asc) or by value (asc). */
  sort: 'count' | 'index';
  /** Values that must be reported even with count 0 (selected values). */
  include?: string[];
  /** Report values with count 0 too (every value the field has in the index), within `limit`. */
  allValues?: boolean;
}

export type SortSpec = { by: 'relevance' } | { by: 'number' | 'string'; field: string; direction: 'asc' | 'desc' };

export interface EngineQuery {
  /** Terms all of which a document must contain; null or '*' matches every document. */
  text: string | null;
  filter: FilterSpec;
  facets: FacetRequest[];
  sort: SortSpec;
  offset: number;
  limit: number;
  /** Group the hits by a facet field's value (each group paged by offset/limit). */
  group?: string;
  /** Match the last query term as a prefix too (when it has 3+ characters); default: the engine's option. */
  prefixLastTerm?: boolean;
  /** BM25 saturation (k1 ≥ 0) for relevance; default the engine's (1.2). */
  k1?: number;
  /**
   * The candidates, found elsewhere (by vectors: query/semantic.ts): only these documents are hits, still filtered by
   * `filter`, and `text` is not matched. Relevance order is `score`, higher first, ties in the order given; an id
   * given twice counts at its first place; unknown and removed ids are left out. Facets count over them, and the
   * other sorts and `group` work as ever.
   */
  ranked?: ReadonlyArray<RankedCandidate>;
}

/** A candidate of EngineQuery.ranked: higher scores rank first. */
export interface RankedCandidate {
  id: string;
  score: number;
}

export interface EngineHit {
  id: string;
  /**
   * Lower is better; only meaningful for relevance order: minus the BM25F score (0 without query text), or minus
   * the score given in EngineQuery.ranked.
   */
  rank: number;
}

export interface EngineGroup {
  value: string;
  total: number;
  hits: EngineHit[];
}

export interface EngineResult {
  total: number;
  hits: EngineHit[];
  /** Field → [value, count] pairs, sorted and limited as requested. */
  facets: Record<string, Array<[string, number]>>;
  groups?: EngineGroup[];
}

/** An engine's indexed terms and phrases, for autocomplete, spell check and More Like This. */
export interface TermDictionary {
  /** Changes whenever the indexed text changes: what was computed from the dictionary holds while it stays. */
  readonly generation: number;
  /** Number of live documents (for idf). */
  readonly documents: number;
  /** Live documents that have the term (0 when none). */
  documentFrequency(term: string): number;
  /** Every indexed term in code-unit order; some may have no live document left (documentFrequency 0). Read only. */
  sortedTerms(): readonly string[];
  /** Live documents that have the phrase. */
  phraseFrequency(phrase: string): number;
  /** Each phrase starting with `prefix` that a live document has, in code-unit order, until `visit` returns false. */
  forEachPhrase(prefix: string, visit: (phrase: string, frequency: number) => boolean | undefined): void;
}

/**
 * Which site, locale and field configuration an engine serves: engines that keep their data outside the process key it
 * by this.
 */
export interface EngineScope {
  siteId: string;
  locale: string;
  /** Changes whenever the engine's content would (see indexKeyOf in indexing/index-manager.ts). */
  indexKey: string;
}

/** A value, or a promise of it: an engine in memory answers at once, one over a database asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * One site + locale index. Writes and queries may be asynchronous (MaybePromise): callers always await them,
 * and a write is visible to every query that starts after its promise resolved (on every process, for an
 * engine whose data is shared). Writes to one engine are never concurrent (the IndexManager serialises them).
 */
export interface SearchEngine {
  readonly schema: EngineSchema;
  /** Number of live documents (an engine over a database: as of its last write or refresh). */
  readonly size: number;
  /**
   * Add or replace documents (by id); a batch with a bad document is refused whole. `version`, when given, is
   * the change-log seq the documents are current for: an engine shared between processes keeps a document's
   * highest version, ignoring a write of an older one (a slow process), and an engine of one process may
   * ignore it (it applies the log in order).
   */
  upsert(documents: IndexableDocument[], version?: number): MaybePromise<void>;
  /** Unknown ids are ignored. `version`: as for upsert (a removal fences off older writes of the ids). */
  remove(ids: string[], version?: number): MaybePromise<void>;
  has(id: string): MaybePromise<boolean>;
  query(query: EngineQuery): MaybePromise<EngineResult>;
  /** Distinct indexed terms with their document frequency (for spell check and autocomplete). */
  vocabulary(): MaybePromise<Iterable<[string, number]>>;
  /**
   * The indexed terms and phrases, read in place (autocomplete, spell check). Synchronous on purpose (they are
   * read many times per request): an engine over a database answers from a copy it refreshes after writes.
   */
  readonly terms: TermDictionary;
  /**
   * More Like This: the documents that have the most of these weighted terms (score: the sum of the weights
   * of the terms a document has, each scaled down the less the term weighs in it, by its BM25F class), best
   * first, leaving out `exclude` (ids).
   */
  similar(
    terms: ReadonlyArray<readonly [term: string, weight: number]>,
    exclude: readonly string[],
    limit: number,
  ): MaybePromise<EngineHit[]>;
  /** Serialize the whole engine (text index, columns, dictionaries) for a snapshot file. */
  exportSnapshot(): Promise<Buffer>;
  /** Let go of timers and the like once the engine is replaced or dropped (its data stays). */
  dispose?(): void;
}

/**
 * An engine family whose indexes live outside the process (a database), shared by every process that opens
 * the same scope: the IndexManager then writes no snapshot files and, on start, opens what is stored instead
 * of re-indexing when the stored index is complete up to a change log position it can replay from.
 */
export interface PersistentEngines {
  /** The stored index of the scope and the change seq up to which it holds every change, or null when there is none. */
  open(scope: EngineScope, schema: EngineSchema): Promise<{ engine: SearchEngine; appliedSeq: number } | null>;
  /** Record that the engines hold every change up to `seq` (never moves an index's mark back). */
  markApplied(engines: SearchEngine[], seq: number): Promise<void>;
  /** Delete the indexes of a site (of one locale only, with `locale`), but for `keep`'s (fields changed). */
  drop(siteId: string, locale?: string, keep?: EngineScope): Promise<void>;
  /**
   * Remove from the engine every document whose id is not in `keep` (after a full re-index into a stored index);
   * with `version` (the seq the re-index read the store at), as a removal of that version, sparing documents
   * written for later changes.
   */
  retainOnly(engine: SearchEngine, keep: ReadonlySet<string>, version?: number): Promise<void>;
}

export interface SearchEngineFactory {
  /** A new empty engine; with a scope, an engine keeping its data outside the process opens that scope's index. */
  create(schema: EngineSchema, scope?: EngineScope): SearchEngine;
  /** Rebuild from exportSnapshot() output; throws when the data is not a snapshot of this version. */
  restore(snapshot: Buffer): Promise<SearchEngine>;
  /** Set when the engines keep their data outside the process (see PersistentEngines). */
  readonly persistent?: PersistentEngines;
}
