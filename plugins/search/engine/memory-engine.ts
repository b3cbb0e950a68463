import {
  checkBm25,
  checkDocument,
  checkPaging,
  checkSchema,
  classScores,
  DEFAULT_BM25,
  inverseDocumentFrequency,
  ownValue,
  queryTerms,
  setOwn,
} from '@vela/search-text';
import { collectBits } from './bitset.js';
import { type EngineState, readEngineSnapshot, writeEngineSnapshot } from './engine-snapshot.js';
import { FacetColumn } from './facet-column.js';
import { facetValues } from './facet-values.js';
import { type ColumnLookup, compileFilters, type FilterMasks, passes } from './filter-masks.js';
import { groupHits } from './grouping.js';
import { hitOrder } from './hit-order.js';
import { NumberColumn } from './number-column.js';
import { OrdinalMap } from './ordinals.js';
import { PhraseIndex } from './phrase-index.js';
import type {
  EngineGroup,
  EngineHit,
  EngineQuery,
  EngineResult,
  EngineSchema,
  IndexableDocument,
  RankedCandidate,
  SearchEngine,
  SearchEngineFactory,
  TermDictionary,
} from './search-engine.js';
import { StringColumn } from './string-column.js';
import { type QueryTermPostings, TextIndex } from './text-index.js';
import { TextMatcher } from './text-matcher.js';
import { selectTop } from './top-k.js';

export interface MemoryEngineOptions {
  /**
   * Match the last query term as a prefix too when it has at least 3 characters ("sear" finds "search"),
   * for search as you type. Every other term matches exactly. Default: false.
   */
  prefixLastTerm?: boolean;
  /**
   * Weight classes per term (1-255): a document's BM25F weight for a term (tf~), rounded to one of this many
   * classes (see @vela/search-text's bm25f). Default 5: tf~ of 4, 2, 1, ½ and ¼, past which saturation and
   * short fields leave little to tell apart; each class is a posting list per term, so more cost heap.
   */
  resolution?: number;
  /** BM25 saturation of a query that names none (EngineQuery.k1). Default DEFAULT_BM25.k1. */
  k1?: number;
}

const MIN_PREFIX_LENGTH = 3;
/**
 * A term on at least 1/DENSE_MIN_SHARE of the ordinals is tested through dense slots (see chooseDense). At 64,
 * the 500 queries of the search benchmark named 137 such terms, more than DenseSlots keeps, and a pass over
 * them made each array again (least recently used out is the worst policy for a cycle); at 16, 53.
 */
const DENSE_MIN_SHARE = 16;
const DEFAULT_RESOLUTION = 5;

/**
 * The default SearchEngine: full text in typed posting lists (see TextIndex), everything else in typed
 * columns keyed by a dense document ordinal. A query is one pass over the text candidates that applies the
 * filters, counts every facet request and keeps the hits; the page is then picked with a bounded heap.
 */
export class MemoryEngine implements SearchEngine {
  readonly schema: EngineSchema;
  private readonly prefixLastTerm: boolean;
  private readonly k1: number;
  private readonly ordinals: OrdinalMap;
  private readonly text: TextIndex;
  private readonly phrases: PhraseIndex;
  readonly terms: TermDictionary;
  private readonly facetColumns: Map<string, FacetColumn>;
  private readonly numberColumns: Map<string, NumberColumn>;
  private readonly stringColumns: Map<string, StringColumn>;
  private readonly columns: ColumnLookup;
  private readonly matcher = new TextMatcher();
  /** Query scratch: candidate ordinals and scores, compacted in place to the hits. */
  private hitOrdinals = new Uint32Array(0);
  private hitScores = new Float64Array(0);
  /** More Like This scratch: a score per ordinal, back to 0 after each call. */
  private similarScores = new Float64Array(0);

  constructor(schema: EngineSchema, options: MemoryEngineOptions = {}, state?: EngineState) {
    this.schema = checkSchema(schema);
    this.prefixLastTerm = options.prefixLastTerm ?? false;
    checkBm25({ k1: options.k1 });
    this.k1 = options.k1 ?? DEFAULT_BM25.k1;
    this.ordinals = state?.ordinals ?? new OrdinalMap();
    this.text = state?.text ?? new TextIndex(checkResolution(options.resolution ?? DEFAULT_RESOLUTION));
    this.phrases = state?.phrases ?? new PhraseIndex();
    this.terms = termDictionary(this.text, this.phrases, this.ordinals);
    const capacity = this.ordinals.capacity;
    this.facetColumns = state?.facets ?? new Map(schema.facetFields.map((field) => [field, new FacetColumn(capacity)]));
    this.numberColumns =
      state?.numbers ?? new Map(schema.numberFields.map((field) => [field, new NumberColumn(capacity)]));
    this.stringColumns =
      state?.strings ?? new Map(schema.stringFields.map((field) => [field, new StringColumn(capacity)]));
    this.columns = {
      facet: (field) => this.facetColumns.get(field),
      number: (field) => this.numberColumns.get(field),
      string: (field) => this.stringColumns.get(field),
    };
  }

  get size(): number {
    return this.ordinals.size;
  }

  has(id: string): boolean {
    return this.ordinals.ordinalOf(id) !== undefined;
  }

  upsert(documents: IndexableDocument[]): void {
    // All checked first, so a bad document leaves the engine as it was.
    for (const document of documents) checkDocument(this.schema, document);
    for (const document of documents) {
      let ordinal = this.ordinals.ordinalOf(document.id);
      if (ordinal === undefined) {
        ordinal = this.ordinals.allocate(document.id);
        this.growColumns();
      } else {
        this.text.remove(ordinal);
        this.phrases.remove(ordinal);
      }
      this.text.add(ordinal, document.fields ?? [{ name: '', text: document.text, boost: 1 }]);
      this.phrases.add(ordinal, document.phrases);
      for (const [field, column] of this.facetColumns) column.set(ordinal, ownValue(document.facets, field) ?? []);
      for (const [field, column] of this.numberColumns) column.set(ordinal, ownValue(document.numbers, field));
      for (const [field, column] of this.stringColumns) column.set(ordinal, ownValue(document.strings, field));
    }
    this.text.settle();
  }

  remove(ids: string[]): void {
    for (const id of ids) {
      const ordinal = this.ordinals.ordinalOf(id);
      if (ordinal === undefined) continue;
      this.text.remove(ordinal);
      this.phrases.remove(ordinal);
      for (const column of this.facetColumns.values()) column.clear(ordinal);
      for (const column of this.numberColumns.values()) column.clear(ordinal);
      for (const column of this.stringColumns.values()) column.clear(ordinal);
      this.ordinals.release(ordinal);
    }
    this.text.settle();
  }

  query(query: EngineQuery): EngineResult {
    checkPaging(query);
    checkBm25({ k1: query.k1 });
    const masks = compileFilters(query.filter, query.facets, this.columns);
    const facetColumns = query.facets.map((request) => this.facetColumn(request.field, 'facet counts'));
    const groupColumn = query.group === undefined ? null : this.facetColumn(query.group, 'group');
    const counts = facetColumns.map((column) => new Uint32Array(column.dictionary.size));

    const prefixLastTerm = query.prefixLastTerm ?? this.prefixLastTerm;
    const candidates = query.ranked
      ? this.rankedCandidates(query.ranked)
      : this.findCandidates(query.text, masks, prefixLastTerm, query.k1 ?? this.k1);
    const ordinals = this.hitOrdinals;
    // Built before the scan (the scratch arrays are final by now) so a bad sort field fails early.
    const order = hitOrder(query.sort, ordinals, this.hitScores, this.columns);
    const total = this.filterAndCount(candidates, masks, facetColumns, counts);
    const top = selectTop(total, query.offset + query.limit, order);
    const given = candidates.givenScores;
    const result: EngineResult = {
      total,
      hits: this.toHits(top.subarray(Math.min(query.offset, top.length)), given),
      facets: {},
    };
    query.facets.forEach((request, r) => {
      setOwn(result.facets, request.field, facetValues(request, facetColumns[r]!, counts[r]!));
    });
    if (groupColumn) {
      result.groups = groupHits(groupColumn, ordinals, total, order, query.offset, query.limit).map(
        (group): EngineGroup => ({
          value: groupColumn.dictionary.values[group.code]!,
          total: group.total,
          hits: this.toHits(group.page, given),
        }),
      );
    }
    return result;
  }

  vocabulary(): Iterable<[string, number]> {
    return this.text.vocabulary();
  }

  similar(
    terms: ReadonlyArray<readonly [term: string, weight: number]>,
    exclude: readonly string[],
    limit: number,
  ): EngineHit[] {
    if (limit <= 0 || terms.length === 0) return [];
    const capacity = this.ordinals.capacity;
    if (this.similarScores.length < capacity) this.similarScores = new Float64Array(capacity);
    const scores = this.similarScores;
    const touched: number[] = [];
    const classes = this.text.resolution;
    for (const [term, weight] of terms) {
      const slots = this.text.slotsOf(term);
      if (slots === undefined) continue;
      for (let slot = 0; slot < slots.length; slot++) {
        const list: ArrayLike<number> | undefined = slots[slot];
        if (!list) continue;
        // A term that weighs more in a document (often, in a short or boosted field) says more about it.
        const scaled = (weight * (classes - slot)) / classes;
        for (let i = 0; i < list.length; i++) {
          const ordinal = list[i]!;
          if (scores[ordinal] === 0) touched.push(ordinal);
          scores[ordinal]! += scaled;
        }
      }
    }
    for (const id of exclude) {
      const ordinal = this.ordinals.ordinalOf(id);
      if (ordinal !== undefined) scores[ordinal] = -1;
    }
    // Best first; ties by ordinal (indexing order), so the answer is the same on every call.
    const best = touched.filter((ordinal) => scores[ordinal]! > 0);
    best.sort((a, b) => scores[b]! - scores[a]! || a - b);
    const hits = best.slice(0, limit).map((ordinal, rank) => ({ id: this.ordinals.idAt(ordinal), rank }));
    for (const ordinal of touched) scores[ordinal] = 0;
    return hits;
  }

  async exportSnapshot(): Promise<Buffer> {
    return writeEngineSnapshot(this.schema, this.state());
  }

  private state(): EngineState {
    return {
      ordinals: this.ordinals,
      text: this.text,
      phrases: this.phrases,
      facets: this.facetColumns,
      numbers: this.numberColumns,
      strings: this.stringColumns,
    };
  }

  /**
   * Fills the scratch arrays with the documents the text matches and returns them. Without text every live
   * document is a candidate, narrowed first by the postings of filters that every consumer applies; those
   * filters are then `settled` (every candidate passes them).
   */
  private findCandidates(text: string | null, masks: FilterMasks, prefixLastTerm: boolean, k1: number): Candidates {
    const capacity = this.ordinals.capacity;
    if (this.hitOrdinals.length < capacity) {
      this.hitOrdinals = new Uint32Array(capacity);
      this.hitScores = new Float64Array(capacity);
    }
    const { terms, lastTypedLast } = queryTerms(text);
    if (terms.length === 0) {
      const { bits, settled } = this.requiredBits(masks);
      const count = collectBits(bits, this.hitOrdinals);
      this.hitScores.fill(0, 0, count);
      return { count, settled };
    }
    const postings: QueryTermPostings[] = [];
    const idfs: number[] = [];
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      const prefix = prefixLastTerm && lastTypedLast && i === terms.length - 1 && term.length >= MIN_PREFIX_LENGTH;
      const found = this.text.lookup(term, prefix);
      if (found === null) return { count: 0, settled: 0 };
      // A prefix's idf counts a document once per index term it expands to: at most every document.
      idfs.push(inverseDocumentFrequency(this.size, found.size));
      found.scores = classScores(idfs[i]!, k1, this.text.resolution);
      postings.push(found);
    }
    this.chooseDense(postings, capacity);
    const count = this.matcher.match(postings, capacity, this.hitOrdinals, this.hitScores);
    this.phrases.addBonus(terms, idfs, this.hitOrdinals.subarray(0, count), this.hitScores);
    return { count, settled: 0 };
  }

  /**
   * Fills the scratch arrays with the live documents of `ranked`, each scored by its place (0 for the first, -1 for
   * the next...) once sorted by the given score (ties in the order given), so the relevance order, which breaks ties
   * by ordinal, is exactly that order; the given scores are reported as the hits' ranks (see toHits).
   */
  private rankedCandidates(ranked: ReadonlyArray<RankedCandidate>): Candidates {
    const seen = new Set<number>();
    const live: Array<{ ordinal: number; score: number }> = [];
    for (const { id, score } of ranked) {
      if (!Number.isFinite(score))
        throw new Error(`ranked: the score of "${id}" must be a finite number, got ${score}`);
      const ordinal = this.ordinals.ordinalOf(id);
      if (ordinal === undefined || seen.has(ordinal)) continue;
      seen.add(ordinal);
      live.push({ ordinal, score });
    }
    // Array.prototype.sort is stable: equal scores keep the order given.
    live.sort((a, b) => b.score - a.score);
    const capacity = this.ordinals.capacity;
    if (this.hitOrdinals.length < capacity) {
      this.hitOrdinals = new Uint32Array(capacity);
      this.hitScores = new Float64Array(capacity);
    }
    const givenScores = new Float64Array(live.length);
    live.forEach(({ ordinal, score }, place) => {
      this.hitOrdinals[place] = ordinal;
      this.hitScores[place] = -place;
      givenScores[place] = score;
    });
    return { count: live.length, settled: 0, givenScores };
  }

  /**
   * Gives the frequent terms after the rarest their dense slots, so the matcher tests its candidates against
   * them rather than walking their lists: a term qualifies when it is on at least one ordinal in
   * DENSE_MIN_SHARE (its array, a byte per ordinal, is then at most 4 × its list, 4 bytes per entry).
   */
  private chooseDense(postings: QueryTermPostings[], capacity: number): void {
    if (postings.length < 2) return;
    let rarest = postings[0]!;
    for (const posting of postings) if (posting.size < rarest.size) rarest = posting;
    for (const posting of postings) {
      if (posting === rarest || posting.term === undefined || posting.size * DENSE_MIN_SHARE < capacity) continue;
      posting.dense = this.text.denseSlotsOf(posting.term, capacity);
    }
  }

  /** Live ordinals that pass every required filter that has postings (those are `settled`). */
  private requiredBits(masks: FilterMasks): { bits: Uint32Array; settled: number } {
    let bits = this.ordinals.live;
    let settled = 0;
    masks.filters.forEach((filter, bit) => {
      if ((masks.required & (1 << bit)) === 0) return;
      const passing = filter.bitset(bits, this.ordinals.end);
      if (passing === null) return;
      bits = passing;
      settled |= 1 << bit;
    });
    return { bits, settled };
  }

  /**
   * One pass over the candidates: which filters each fails (one bit each), whether it is a hit (then it is
   * moved down to the hit prefix of the scratch arrays) and which facet requests count it.
   */
  private filterAndCount(
    candidates: Candidates,
    masks: FilterMasks,
    columns: FacetColumn[],
    counts: Uint32Array[],
  ): number {
    const ordinals = this.hitOrdinals;
    const scores = this.hitScores;
    const bits: number[] = [];
    for (let bit = 0; bit < masks.filters.length; bit++) if ((candidates.settled & (1 << bit)) === 0) bits.push(bit);
    const tests = bits.map((bit) => masks.filters[bit]!);
    const facetMasks = masks.facets;
    // A local alias: under tsx modules become CommonJS, where each call of an imported function goes
    // through an export getter, which cost a third of this loop.
    const pass = passes;
    let hits = 0;
    for (let i = 0; i < candidates.count; i++) {
      const ordinal = ordinals[i]!;
      let failed = 0;
      for (let t = 0; t < tests.length; t++) if (!tests[t]!.test(ordinal)) failed |= 1 << bits[t]!;
      if (pass(masks.main, failed)) {
        ordinals[hits] = ordinal;
        scores[hits] = scores[i]!;
        hits++;
      }
      for (let r = 0; r < columns.length; r++)
        if (pass(facetMasks[r]!, failed)) columns[r]!.countInto(ordinal, counts[r]!);
    }
    return hits;
  }

  /** `given`: the scores of ranked candidates by place (their hit scores are minus their places). */
  private toHits(page: Uint32Array, given?: Float64Array): EngineHit[] {
    const hits: EngineHit[] = [];
    // Rank: lower is better, so minus the score (0 - score: no -0 for an unscored hit).
    for (const i of page) {
      const score = given ? given[0 - this.hitScores[i]!]! : this.hitScores[i]!;
      hits.push({ id: this.ordinals.idAt(this.hitOrdinals[i]!), rank: 0 - score });
    }
    return hits;
  }

  private facetColumn(field: string, use: string): FacetColumn {
    const column = this.facetColumns.get(field);
    if (!column) throw new Error(`${use} on "${field}": the engine schema has no such facet field`);
    return column;
  }

  private growColumns(): void {
    const capacity = this.ordinals.capacity;
    for (const column of this.facetColumns.values()) column.grow(capacity);
    for (const column of this.numberColumns.values()) column.grow(capacity);
    for (const column of this.stringColumns.values()) column.grow(capacity);
  }
}

/** The engine's terms and phrases as the TermDictionary autocomplete, spell check and More Like This read. */
function termDictionary(text: TextIndex, phrases: PhraseIndex, ordinals: OrdinalMap): TermDictionary {
  return {
    get generation() {
      return text.generation;
    },
    get documents() {
      return ordinals.size;
    },
    documentFrequency: (term) => text.documentFrequency(term),
    sortedTerms: () => text.termsInOrder(),
    phraseFrequency: (phrase) => phrases.frequency(phrase),
    forEachPhrase: (prefix, visit) => phrases.forEachStartingWith(prefix, visit),
  };
}

export function createMemoryEngineFactory(options: MemoryEngineOptions = {}): SearchEngineFactory {
  return {
    create: (schema) => new MemoryEngine(schema, options),
    restore: async (snapshot) => {
      const { schema, state } = readEngineSnapshot(snapshot);
      return new MemoryEngine(schema, options, state);
    },
  };
}

export const memoryEngineFactory: SearchEngineFactory = createMemoryEngineFactory();

/**
 * How many candidates the scratch arrays hold, and the filters they are known to pass (bits); for ranked
 * candidates, their given scores by place.
 */
interface Candidates {
  count: number;
  settled: number;
  givenScores?: Float64Array;
}

function checkResolution(resolution: number): number {
  // Slots are stored as bytes (@vela/search-text's analyze, snapshots).
  if (!Number.isInteger(resolution) || resolution < 1 || resolution > 255)
    throw new Error(`resolution must be an integer from 1 to 255, got ${resolution}`);
  return resolution;
}
