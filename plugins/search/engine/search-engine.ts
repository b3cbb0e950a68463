/**
 * The search engine behind the search service, one instance per site + locale. It knows documents
 * only as an id, a combined text, facet values and sortable values; everything Vela-specific
 * (links, operators, spotlights, highlighting) lives above it. See ../../../docs/ARCHITECTURE.md.
 */

/** What the engine indexes of one document. */
export interface IndexableDocument {
  id: string;
  /** Combined searchable text (title, abstract, text and the other text/string fields). */
  text: string;
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
 * A document passes when (every `and` filter passes) OR (some `or` filter passes); a part with no
 * filters is left out, and no filters at all lets every document pass.
 */
export interface FilterSpec {
  and: FieldFilter[];
  or: FieldFilter[];
}

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
}

export interface EngineHit {
  id: string;
  /** 0 for the best match; lower is better. Only meaningful for relevance order. */
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

export interface SearchEngine {
  readonly schema: EngineSchema;
  /** Number of live documents. */
  readonly size: number;
  /** Add or replace documents (by id). */
  upsert(documents: IndexableDocument[]): void;
  remove(ids: string[]): void;
  has(id: string): boolean;
  query(query: EngineQuery): EngineResult;
  /** Distinct indexed terms with their document frequency (for spell check and autocomplete). */
  vocabulary(): Iterable<[string, number]>;
  /** The indexed terms and phrases, read in place (autocomplete, spell check). */
  readonly terms: TermDictionary;
  /**
   * More Like This: the documents that have the most of these weighted terms (score: the sum of the weights
   * of the terms a document has, each scaled down the later the term first comes in it), best first, leaving
   * out `exclude` (ids).
   */
  similar(terms: ReadonlyArray<readonly [term: string, weight: number]>, exclude: readonly string[], limit: number): EngineHit[];
  /** Serialize the whole engine (text index, columns, dictionaries) for a snapshot file. */
  exportSnapshot(): Promise<Buffer>;
}

export interface SearchEngineFactory {
  create(schema: EngineSchema): SearchEngine;
  /** Rebuild from exportSnapshot() output; throws when the data is not a snapshot of this version. */
  restore(snapshot: Buffer): Promise<SearchEngine>;
}
