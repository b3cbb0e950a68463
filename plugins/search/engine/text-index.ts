import {
  DEFAULT_BM25,
  type FieldLength,
  lengthNormalisation,
  type TextField,
  tokenize,
  weightClass,
} from '@vela/search-text';
import { DenseSlots } from './dense-slots.js';
import { ListPool } from './list-pool.js';
import { lowerBound, SortedStrings } from './sorted-strings.js';

/** One index term's documents by weight class (see @vela/search-text's bm25f): lists[class] = ordinals (0 weighs most). */
export type SlotLists = ReadonlyArray<ArrayLike<number> | undefined>;

/** What a query term matches: one index term, or every index term it is a prefix of. */
export interface QueryTermPostings {
  lists: SlotLists[];
  /** Number of (document, index term) entries, to intersect the rarest term first. */
  size: number;
  /** The index term, when the query term matches exactly one (not as a prefix). */
  term?: string;
  /** What a document adds to its score per class of its lists (see @vela/search-text's classScores). */
  scores: Float64Array;
  /**
   * The term's class (slot) + 1 per ordinal (0: not on it), when the engine chose to test candidates against it (see
   * DenseSlots).
   */
  dense?: Uint8Array;
}

/** What a snapshot keeps of the text index: every term's ordinals, class by class, and the field lengths. */
export interface TextIndexData {
  terms: string[];
  /** Per field: name, tokens and documents (see FieldLength). */
  fieldLengths: Array<[string, number, number]>;
  /** terms.length × resolution counts: how many ordinals each term has in each class (slot). */
  slotCounts: Uint32Array;
  /** The ordinals, term by term, slot by slot. */
  ordinals: Uint32Array;
}

/** Bytes of DenseSlots arrays kept: 128 terms of a 63k-document index. */
const DENSE_BUDGET_BYTES = 8 * 1024 * 1024;

/** Scores until the engine sets them (lookup knows no idf). */
const EMPTY_SCORES = new Float64Array(0);

/** Terms longer than this are copied before being kept (see `canonical`). */
const SLICED_STRING_MIN = 13;

/**
 * The full-text side of the engine: per index term and weight class (the document's BM25F term weight tf~,
 * rounded on a log scale: see @vela/search-text's bm25f), the ordinals of the documents that have the term,
 * in the order they were added (a tie between equal scores goes by it). Each (term, class) is
 * one list of a ListPool (list number term id × resolution + class, the class named `slot` below); a second pool keeps, per ordinal, the
 * lists its document is on, so a removal touches only that document's lists.
 *
 * The engine keeps these lists itself rather than in a general-purpose text index (flexsearch's `Index`, say):
 * it needs only a map from term to slot arrays (documents arrive as fields, weighed as @vela/search-text says; queries
 * intersect the slot arrays in TextMatcher), and on the Debian corpus (63k documents, 2.9 million postings) JS
 * arrays of numbers, each with growth slack, plus a register of per-document references take 106 MB of heap,
 * against ~35 MB here.
 */
export class TextIndex {
  readonly resolution: number;
  /** Every term indexed since the last cleanup → its id. */
  private readonly termIds = new Map<string, number>();
  /** Term by id ('' for a free id). */
  private readonly termById: string[] = [];
  private readonly freeTermIds: number[] = [];
  private readonly postings = new ListPool();
  /** Per ordinal, the posting lists that hold it. */
  private readonly register = new ListPool();
  private readonly dense = new DenseSlots(DENSE_BUDGET_BYTES);
  private listScratch = new Uint32Array(256);
  /** Per term id, the stamp of the last add that met it. */
  private seen = new Uint32Array(1024);
  private stamp = 0;
  /** Every term, in code-unit order, for prefix lookups. */
  private readonly termsSorted = new SortedStrings();
  /** Per term id, its tf~ in the document being added (single precision: a class is a factor of 2 wide). */
  private weights = new Float32Array(1024);
  private termScratch = new Uint32Array(256);
  /**
   * Per field, the tokens and documents it had over every document added: replaced and removed documents stay
   * counted (per-document lengths would cost a number per field and ordinal), which moves the averages little.
   */
  private readonly fieldLengths = new Map<string, FieldLength>();
  private documents = 0;
  private removedSinceCleanup = 0;
  /** Changes on every add and remove: what callers cached about the terms holds while it stays the same. */
  generation = 0;

  constructor(resolution: number) {
    this.resolution = resolution;
  }

  /**
   * Indexes a document's fields (replacing what the ordinal had): its distinct terms, each in the class of its
   * tf~, as @vela/search-text's `weightedFrequencies` gives them. Done here rather than through it so each
   * token costs one map lookup: a per-term stamp finds repeats instead of a Map per document (the import
   * profile had a Set and the lookup at a quarter of the engine's time).
   */
  add(ordinal: number, fields: readonly TextField[]): void {
    if (this.register.length(ordinal) > 0) this.remove(ordinal);
    const stamp = this.nextStamp();
    let count = 0;
    for (const field of fields) {
      const tokens = tokenize(field.text);
      if (tokens.length === 0) continue;
      const unit = field.boost / this.normalisation(field, tokens.length);
      if (this.termScratch.length < count + tokens.length)
        this.termScratch = grownTo(this.termScratch, (count + tokens.length) * 2);
      for (let position = 0; position < tokens.length; position++) {
        const id = this.termId(tokens[position]!);
        if (this.seen[id] === stamp) {
          this.weights[id]! += unit;
          continue;
        }
        this.seen[id] = stamp;
        this.weights[id] = unit;
        this.termScratch[count++] = id;
      }
    }
    if (this.listScratch.length < count) this.listScratch = new Uint32Array(count * 2);
    const lists = this.listScratch;
    for (let i = 0; i < count; i++) {
      const id = this.termScratch[i]!;
      const list = id * this.resolution + weightClass(this.weights[id]!, this.resolution);
      this.postings.append(list, ordinal);
      lists[i] = list;
    }
    this.register.set(ordinal, lists.subarray(0, count));
    this.documents++;
    this.generation++;
  }

  /** The field's length normalisation for this document, the field's statistics counting it first. */
  private normalisation(field: TextField, length: number): number {
    let stats = this.fieldLengths.get(field.name);
    if (stats === undefined) {
      stats = { tokens: 0, documents: 0 };
      this.fieldLengths.set(field.name, stats);
    }
    stats.tokens += length;
    stats.documents++;
    return lengthNormalisation(length, stats.tokens / stats.documents, field.b ?? DEFAULT_BM25.b);
  }

  remove(ordinal: number): void {
    const lists = this.register.view(ordinal);
    if (lists !== undefined) for (let i = 0; i < lists.length; i++) this.postings.remove(lists[i]!, ordinal);
    this.register.clear(ordinal);
    this.documents--;
    this.generation++;
    this.removedSinceCleanup++;
    if (this.removedSinceCleanup > 1024 && this.removedSinceCleanup > this.documents / 4) this.cleanup();
  }

  /** Gives back room left by a batch of writes (see ListPool.trim); the engine calls it after each batch. */
  settle(): void {
    this.postings.trim();
    this.register.trim();
  }

  /** The term's class lists, or undefined when no document has it. Read only, and only until the next write. */
  slotsOf(term: string): SlotLists | undefined {
    const id = this.termIds.get(term);
    if (id === undefined) return undefined;
    const slots: Array<Uint32Array | undefined> = new Array(this.resolution);
    let any = false;
    for (let slot = 0; slot < this.resolution; slot++) {
      const list = this.postings.view(id * this.resolution + slot);
      slots[slot] = list;
      any ||= list !== undefined;
    }
    return any ? slots : undefined;
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
    if (size === 0) return null;
    const scores = EMPTY_SCORES;
    return prefix ? { lists, size, scores } : { lists, size, term, scores };
  }

  /**
   * The term's slot + 1 per ordinal below `ordinalEnd` (0 where a document lacks it), kept until the next
   * write; undefined for a term no document has, or an index too large for the budget. Read only.
   */
  denseSlotsOf(term: string, ordinalEnd: number): Uint8Array | undefined {
    const id = this.termIds.get(term);
    if (id === undefined) return undefined;
    return this.dense.get(id, this.generation, ordinalEnd, (slots) => {
      for (let slot = 0; slot < this.resolution; slot++) {
        const list = this.postings.view(id * this.resolution + slot);
        if (list !== undefined) for (let i = 0; i < list.length; i++) slots[list[i]!] = slot + 1;
      }
    });
  }

  /** Number of live documents that have the term (0 when none). */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.frequencyOf(id);
  }

  /**
   * Every term indexed since the last cleanup, in code-unit order (some may have no document left: check
   * documentFrequency). Read only, and only until the next add.
   */
  termsInOrder(): readonly string[] {
    return this.termsSorted.all();
  }

  /** Distinct indexed terms with their document frequency. */
  *vocabulary(): Generator<[string, number]> {
    for (const [term, id] of this.termIds) {
      const frequency = this.frequencyOf(id);
      if (frequency > 0) yield [term, frequency];
    }
  }

  export(): TextIndexData {
    const terms: string[] = [];
    const counts: number[] = [];
    let total = 0;
    for (const [term, id] of this.termIds) {
      if (this.frequencyOf(id) === 0) continue;
      terms.push(term);
      for (let slot = 0; slot < this.resolution; slot++) {
        const length = this.postings.length(id * this.resolution + slot);
        counts.push(length);
        total += length;
      }
    }
    const ordinals = new Uint32Array(total);
    let at = 0;
    for (const term of terms) {
      const id = this.termIds.get(term)!;
      for (let slot = 0; slot < this.resolution; slot++) {
        const list = this.postings.view(id * this.resolution + slot);
        if (list === undefined) continue;
        ordinals.set(list, at);
        at += list.length;
      }
    }
    const fieldLengths = [...this.fieldLengths].map(([name, { tokens, documents }]): [string, number, number] => [
      name,
      tokens,
      documents,
    ]);
    return { terms, fieldLengths, slotCounts: Uint32Array.from(counts), ordinals };
  }

  /** Rebuilds the index from export() output, every list in its exported order. */
  static restore(
    data: TextIndexData,
    resolution: number,
    ordinalEnd: number,
    isLive: (ordinal: number) => boolean,
  ): TextIndex {
    const { terms, slotCounts, ordinals } = data;
    if (slotCounts.length !== terms.length * resolution) throw corrupt('term slot table has the wrong size');
    if (new Set(terms).size !== terms.length) throw corrupt('a term appears twice');
    const perDocument = new Uint32Array(ordinalEnd + 1);
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i]!;
      if (ordinal >= ordinalEnd || !isLive(ordinal))
        throw corrupt(`text posting for ordinal ${ordinal}, which holds no document`);
      perDocument[ordinal + 1]!++;
    }
    for (let ordinal = 0; ordinal < ordinalEnd; ordinal++) perDocument[ordinal + 1]! += perDocument[ordinal]!;
    const text = new TextIndex(resolution);
    for (const [name, tokens, documents] of data.fieldLengths) text.fieldLengths.set(name, { tokens, documents });
    // The per-ordinal register, in CSR form, filled while the lists are.
    const fill = perDocument.slice(0, ordinalEnd);
    const listsOf = new Uint32Array(ordinals.length);
    let at = 0;
    for (let term = 0; term < terms.length; term++) {
      const id = text.termId(terms[term]!);
      for (let slot = 0; slot < resolution; slot++) {
        const count = slotCounts[term * resolution + slot]!;
        if (at + count > ordinals.length) throw corrupt('term slot counts exceed the postings');
        const list = id * resolution + slot;
        for (let end = at + count; at < end; at++) {
          const ordinal = ordinals[at]!;
          text.postings.append(list, ordinal);
          listsOf[fill[ordinal]!++] = list;
        }
      }
    }
    if (at !== ordinals.length) throw corrupt('term slot counts do not add up to the postings');
    for (let ordinal = 0; ordinal < ordinalEnd; ordinal++) {
      const from = perDocument[ordinal]!;
      const to = perDocument[ordinal + 1]!;
      if (from === to) continue;
      text.register.set(ordinal, listsOf.subarray(from, to));
      text.documents++;
    }
    text.generation = text.documents;
    text.settle();
    return text;
  }

  private frequencyOf(id: number): number {
    let frequency = 0;
    for (let slot = 0; slot < this.resolution; slot++) frequency += this.postings.length(id * this.resolution + slot);
    return frequency;
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** The term's id, given one when it is new. */
  private termId(term: string): number {
    const known = this.termIds.get(term);
    if (known !== undefined) return known;
    const kept = canonical(term);
    const id = this.freeTermIds.length > 0 ? this.freeTermIds.pop()! : this.termById.length;
    if (id >= this.seen.length) {
      this.seen = grownTo(this.seen, this.seen.length * 2);
      const weights = new Float32Array(this.seen.length);
      weights.set(this.weights);
      this.weights = weights;
    }
    this.termById[id] = kept;
    this.termIds.set(kept, id);
    this.termsSorted.add(kept);
    return id;
  }

  private termsStartingWith(prefix: string): string[] {
    const sorted = this.termsSorted.all();
    const low = lowerBound(sorted, prefix);
    const out: string[] = [];
    for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }

  /** Drops the terms no document has any more; their ids are given to new terms. */
  private cleanup(): void {
    for (const [term, id] of this.termIds) {
      if (this.frequencyOf(id) > 0) continue;
      this.termIds.delete(term);
      this.termById[id] = '';
      this.freeTermIds.push(id);
      for (let slot = 0; slot < this.resolution; slot++) this.postings.clear(id * this.resolution + slot);
    }
    this.termsSorted.reset(this.termIds.keys());
    this.removedSinceCleanup = 0;
  }
}

/**
 * A token split off a document is often a V8 "sliced string" that keeps the whole lower-cased document
 * alive, so a new long term is copied before the index keeps it.
 */
function canonical(term: string): string {
  return term.length >= SLICED_STRING_MIN ? Buffer.from(term, 'utf8').toString('utf8') : term;
}

function grownTo(array: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(length);
  grown.set(array);
  return grown;
}

function sizeOf(slots: SlotLists): number {
  let size = 0;
  for (let slot = 0; slot < slots.length; slot++) size += slots[slot]?.length ?? 0;
  return size;
}

function corrupt(detail: string): Error {
  return new Error(`search engine snapshot is corrupt: ${detail}`);
}
