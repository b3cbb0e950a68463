import { Index } from 'flexsearch';
import type { AnalyzedText } from './text-analyzer.js';
import { compareStrings } from './value-dictionary.js';

/** One index term's documents by relevance slot: lists[slot] = ordinals (slot 0 is the best). */
export type SlotLists = ReadonlyArray<ReadonlyArray<number> | undefined>;

/** What a query term matches: one index term, or every index term it is a prefix of. */
export interface QueryTermPostings {
  lists: SlotLists[];
  /** Number of (document, index term) entries, to intersect the rarest term first. */
  size: number;
}

/** What a snapshot keeps of the text index: every term's ordinals, slot by slot. */
export interface TextIndexData {
  terms: string[];
  /** terms.length × resolution counts: how many ordinals each term has in each slot. */
  slotCounts: Uint32Array;
  /** The ordinals, term by term, slot by slot. */
  ordinals: Uint32Array;
}

/** Terms longer than this are copied before being kept (see `canonical`). */
const SLICED_STRING_MIN = 13;

/**
 * The full-text side of the engine: a flexsearch `Index` (tokenize 'strict') over each document's combined
 * text, keyed by ordinal. flexsearch stores the postings (term → slot → ordinals) and, with `fastupdate`,
 * removes a document in O(its terms); without it every removal scans the whole index (36 ms per document on
 * the 63k-document Debian corpus), which an upsert of a changed document would pay too.
 *
 * Queries read a term's slot arrays as they are (`search(term, { resolve: false }).result`, no copy) and
 * TextMatcher intersects them. flexsearch's own multi-term search is not used: it stops once `limit` hits
 * are found (0 means 100), keeps only the first `resolution` slots of each term when the query passes a
 * smaller `resolution` (silently dropping matches), and allocates per hit.
 *
 * Documents arrive analysed (text-analyzer.ts): flexsearch gets the distinct terms as an array, which its
 * add() hands to the encoder untouched (src/index/add.js: "do not force a string as input"), and takes each
 * term's slot from `score`. So it tokenises nothing itself, and a snapshot restore replays the exact slots.
 */
export class TextIndex {
  readonly resolution: number;
  private readonly index: Index;
  /** Every term indexed since the last cleanup (flexsearch has no public way to list its terms). */
  private readonly terms = new Set<string>();
  private sortedTerms: string[] = [];
  private unsortedTerms: string[] = [];
  private slotsOfPendingAdd: Uint8Array = new Uint8Array(0);
  private documents = 0;
  private removedSinceCleanup = 0;
  /** flexsearch's own term → slot arrays map, read directly for document frequencies (no result object). */
  private readonly postingsMap: Map<string, SlotLists>;
  /** Changes on every add and remove: what callers cached about the terms holds while it stays the same. */
  generation = 0;

  constructor(resolution: number) {
    this.resolution = resolution;
    this.index = new Index({
      tokenize: 'strict',
      resolution,
      fastupdate: true,
      // Documents come as term arrays (add); queries are single terms already analysed.
      encode: (input: string) => (typeof input === 'string' ? [input] : (input as unknown as string[])),
      score: (_content, _term, position) => this.slotsOfPendingAdd[position] ?? 0,
    });
    this.postingsMap = (this.index as unknown as { map: Map<string, SlotLists> }).map;
  }

  add(ordinal: number, text: AnalyzedText): void {
    const terms = text.terms;
    for (let i = 0; i < terms.length; i++) terms[i] = this.canonical(terms[i]!);
    this.slotsOfPendingAdd = text.slots;
    this.index.add(ordinal, terms as unknown as string);
    this.documents++;
    this.generation++;
  }

  remove(ordinal: number): void {
    this.index.remove(ordinal);
    this.documents--;
    this.generation++;
    this.removedSinceCleanup++;
    if (this.removedSinceCleanup > 1024 && this.removedSinceCleanup > this.documents / 4) this.cleanup();
  }

  /** The term's slot arrays, or undefined when no document has it. Read only: they are flexsearch's own. */
  slotsOf(term: string): SlotLists | undefined {
    if (!this.terms.has(term)) return undefined;
    const slots = this.index.search(term, { resolve: false }).result as SlotLists;
    return sizeOf(slots) > 0 ? slots : undefined;
  }

  /** Postings of a query term (`prefix`: of every indexed term starting with it), or null when none. */
  lookup(term: string, prefix: boolean): QueryTermPostings | null {
    const lists: SlotLists[] = [];
    let size = 0;
    for (const indexTerm of prefix ? this.termsStartingWith(term) : [term]) {
      const slots = this.slotsOf(indexTerm);
      if (slots === undefined) continue;
      lists.push(slots);
      size += sizeOf(slots);
    }
    return size > 0 ? { lists, size } : null;
  }

  /** Number of live documents that have the term (0 when none). */
  documentFrequency(term: string): number {
    const slots = this.postingsMap.get(term);
    return slots === undefined ? 0 : sizeOf(slots);
  }

  /**
   * Every term indexed since the last cleanup, in code-unit order (some may have no document left: check
   * documentFrequency). Read only, and only until the next add.
   */
  termsInOrder(): readonly string[] {
    return this.sortedTermList();
  }

  /** Distinct indexed terms with their document frequency. */
  *vocabulary(): Generator<[string, number]> {
    for (const term of this.terms) {
      const slots = this.slotsOf(term);
      if (slots !== undefined) yield [term, sizeOf(slots)];
    }
  }

  export(): TextIndexData {
    const terms: string[] = [];
    const counts: number[] = [];
    const chunks: Array<ReadonlyArray<number>> = [];
    let total = 0;
    for (const term of this.terms) {
      const slots = this.slotsOf(term);
      if (slots === undefined) continue;
      terms.push(term);
      for (let slot = 0; slot < this.resolution; slot++) {
        const ordinals = slots[slot] ?? [];
        counts.push(ordinals.length);
        chunks.push(ordinals);
        total += ordinals.length;
      }
    }
    const ordinals = new Uint32Array(total);
    let at = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) ordinals[at++] = chunk[i]!;
    }
    return { terms, slotCounts: Uint32Array.from(counts), ordinals };
  }

  /**
   * Rebuilds the index from export() output by re-adding every document with its terms and slots.
   * flexsearch's own import() would be faster but turns `fastupdate` off, after which every removal scans
   * the whole index (tens of milliseconds each on 60k documents).
   */
  static restore(data: TextIndexData, resolution: number, ordinalEnd: number, isLive: (ordinal: number) => boolean): TextIndex {
    const { terms, slotCounts, ordinals } = data;
    if (slotCounts.length !== terms.length * resolution) throw corrupt('term slot table has the wrong size');
    const perDocument = new Uint32Array(ordinalEnd + 1);
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i]!;
      if (ordinal >= ordinalEnd || !isLive(ordinal)) throw corrupt(`text posting for ordinal ${ordinal}, which holds no document`);
      perDocument[ordinal + 1]!++;
    }
    for (let ordinal = 0; ordinal < ordinalEnd; ordinal++) perDocument[ordinal + 1]! += perDocument[ordinal]!;
    // Invert term → ordinals into ordinal → (term, slot), in CSR form.
    const fill = perDocument.slice(0, ordinalEnd);
    const termOf = new Uint32Array(ordinals.length);
    const slotOf = new Uint8Array(ordinals.length);
    let at = 0;
    for (let term = 0; term < terms.length; term++) {
      for (let slot = 0; slot < resolution; slot++) {
        const count = slotCounts[term * resolution + slot]!;
        if (at + count > ordinals.length) throw corrupt('term slot counts exceed the postings');
        for (let end = at + count; at < end; at++) {
          const position = fill[ordinals[at]!]!++;
          termOf[position] = term;
          slotOf[position] = slot;
        }
      }
    }
    if (at !== ordinals.length) throw corrupt('term slot counts do not add up to the postings');
    const text = new TextIndex(resolution);
    for (let ordinal = 0; ordinal < ordinalEnd; ordinal++) {
      const from = perDocument[ordinal]!;
      const to = perDocument[ordinal + 1]!;
      if (from === to) continue;
      const documentTerms: string[] = [];
      for (let i = from; i < to; i++) documentTerms.push(terms[termOf[i]!]!);
      text.add(ordinal, { terms: documentTerms, slots: slotOf.subarray(from, to) });
    }
    return text;
  }

  /**
   * The instance kept for a term. A token split off a document is often a V8 "sliced string" that keeps the
   * whole lower-cased document alive, so a new long term is copied before flexsearch and the term set keep it.
   */
  private canonical(term: string): string {
    if (this.terms.has(term)) return term;
    const kept = term.length >= SLICED_STRING_MIN ? Buffer.from(term, 'utf8').toString('utf8') : term;
    this.terms.add(kept);
    this.unsortedTerms.push(kept);
    return kept;
  }

  private termsStartingWith(prefix: string): string[] {
    const sorted = this.sortedTermList();
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const out: string[] = [];
    for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }

  /** All terms in code-unit order; new terms are sorted on their own and merged in, not re-sorted with all. */
  private sortedTermList(): string[] {
    if (this.unsortedTerms.length === 0) return this.sortedTerms;
    const fresh = this.unsortedTerms.sort(compareStrings);
    const old = this.sortedTerms;
    const merged: string[] = new Array(old.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < fresh.length) merged[k++] = old[i]! <= fresh[j]! ? old[i++]! : fresh[j++]!;
    while (i < old.length) merged[k++] = old[i++]!;
    while (j < fresh.length) merged[k++] = fresh[j++]!;
    this.sortedTerms = merged;
    this.unsortedTerms = [];
    return merged;
  }

  /** Drops the terms no document has any more, in flexsearch and here. */
  private cleanup(): void {
    this.index.cleanup();
    for (const term of this.terms) {
      if (this.slotsOf(term) === undefined) this.terms.delete(term);
    }
    this.sortedTerms = [...this.terms].sort(compareStrings);
    this.unsortedTerms = [];
    this.removedSinceCleanup = 0;
  }
}

function sizeOf(slots: SlotLists): number {
  let size = 0;
  for (let slot = 0; slot < slots.length; slot++) size += slots[slot]?.length ?? 0;
  return size;
}

function corrupt(detail: string): Error {
  return new Error(`search engine snapshot is corrupt: ${detail}`);
}
