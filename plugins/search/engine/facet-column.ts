import { wordCount } from './bitset.js';
import { emptyCodes, grownCodes, NO_VALUE } from './column-codes.js';
import { choosesBitset, type Posting } from './postings.js';
import { ValueDictionary } from './value-dictionary.js';

/** Column code of a document with two or more values; its codes live in the overflow pool. */
const MANY_VALUES = 0xfffffffe;

/** What a snapshot keeps of a facet column (ordinals below `end`). */
export interface FacetColumnData {
  values: string[];
  codes: Uint32Array;
  /** Per ordinal, how many codes it has in `pool` (0 unless it has several values). */
  manyLengths: Uint32Array;
  /** The codes of the documents with several values, in ordinal order. */
  pool: Uint32Array;
}

/**
 * One facet field's values per document. The schema does not say which fields are multi-valued, so the
 * column adapts: one Uint32Array code per ordinal serves single values, and documents with several values
 * keep them in an overflow pool (offsets + lengths, allocated on first use) — a single-valued field never
 * pays for it. Postings per value are derived lazily and dropped on every write.
 */
export class FacetColumn {
  readonly dictionary: ValueDictionary;
  private codes: Uint32Array;
  private starts: Uint32Array | null = null;
  private lengths: Uint32Array | null = null;
  private pool: Uint32Array = new Uint32Array(0);
  private poolUsed = 0;
  private poolGarbage = 0;
  private postings: Posting[] | null = null;

  constructor(capacity: number, dictionary = new ValueDictionary()) {
    this.dictionary = dictionary;
    this.codes = emptyCodes(capacity);
  }

  grow(capacity: number): void {
    if (capacity <= this.codes.length) return;
    this.codes = grownCodes(this.codes, capacity);
    if (this.starts && this.lengths) {
      this.starts = grown(this.starts, capacity);
      this.lengths = grown(this.lengths, capacity);
    }
  }

  set(ordinal: number, values: readonly string[]): void {
    this.clear(ordinal);
    if (values.length === 0) return;
    const codes = this.uniqueCodes(values);
    if (codes.length === 1) {
      this.codes[ordinal] = codes[0]!;
    } else {
      this.storeMany(ordinal, codes);
    }
  }

  clear(ordinal: number): void {
    this.postings = null;
    if (this.codes[ordinal] === MANY_VALUES) {
      this.poolGarbage += this.lengths![ordinal]!;
      this.lengths![ordinal] = 0;
    }
    this.codes[ordinal] = NO_VALUE;
  }

  /** counts[code]++ for each of the document's values. */
  countInto(ordinal: number, counts: Uint32Array): void {
    const code = this.codes[ordinal]!;
    if (code < MANY_VALUES) {
      counts[code]!++;
    } else if (code === MANY_VALUES) {
      const start = this.starts![ordinal]!;
      const end = start + this.lengths![ordinal]!;
      for (let i = start; i < end; i++) counts[this.pool[i]!]!++;
    }
  }

  /** How many of the document's values are flagged in `selected` (indexed by code). */
  countSelected(ordinal: number, selected: Uint8Array): number {
    const code = this.codes[ordinal]!;
    if (code < MANY_VALUES) return selected[code]!;
    if (code !== MANY_VALUES) return 0;
    const start = this.starts![ordinal]!;
    const end = start + this.lengths![ordinal]!;
    let n = 0;
    for (let i = start; i < end; i++) n += selected[this.pool[i]!]!;
    return n;
  }

  valueCount(ordinal: number): number {
    const code = this.codes[ordinal]!;
    if (code < MANY_VALUES) return 1;
    return code === MANY_VALUES ? this.lengths![ordinal]! : 0;
  }

  /** The document's i-th value code (0 ≤ i < valueCount). */
  codeAt(ordinal: number, i: number): number {
    const code = this.codes[ordinal]!;
    return code === MANY_VALUES ? this.pool[this.starts![ordinal]! + i]! : code;
  }

  /** Postings by code over ordinals below `end`, rebuilt after writes. */
  postingsBelow(end: number): Posting[] {
    if (this.postings === null) this.postings = this.buildPostings(end);
    return this.postings;
  }

  export(end: number): FacetColumnData {
    const manyLengths = new Uint32Array(end);
    let total = 0;
    for (let ordinal = 0; ordinal < end; ordinal++) {
      if (this.codes[ordinal] === MANY_VALUES) total += manyLengths[ordinal] = this.lengths![ordinal]!;
    }
    const pool = new Uint32Array(total);
    let at = 0;
    for (let ordinal = 0; ordinal < end; ordinal++) {
      const length = manyLengths[ordinal]!;
      if (length === 0) continue;
      const start = this.starts![ordinal]!;
      pool.set(this.pool.subarray(start, start + length), at);
      at += length;
    }
    return { values: this.dictionary.values, codes: this.codes.slice(0, end), manyLengths, pool };
  }

  static restore(data: FacetColumnData, capacity: number): FacetColumn {
    checkFacetData(data);
    const column = new FacetColumn(capacity, ValueDictionary.from(data.values));
    column.codes.set(data.codes);
    let at = 0;
    for (let ordinal = 0; ordinal < data.manyLengths.length; ordinal++) {
      const length = data.manyLengths[ordinal]!;
      if (length === 0) continue;
      column.storeMany(ordinal, data.pool.subarray(at, at + length));
      at += length;
    }
    return column;
  }

  private uniqueCodes(values: readonly string[]): number[] {
    const codes: number[] = [];
    for (const value of values) {
      const code = this.dictionary.intern(value);
      if (!codes.includes(code)) codes.push(code);
    }
    return codes;
  }

  private storeMany(ordinal: number, codes: ArrayLike<number>): void {
    if (this.starts === null || this.lengths === null) {
      this.starts = new Uint32Array(this.codes.length);
      this.lengths = new Uint32Array(this.codes.length);
    }
    if (this.poolGarbage > 4096 && this.poolGarbage > this.poolUsed / 2) this.compactPool();
    this.reservePool(codes.length);
    this.starts[ordinal] = this.poolUsed;
    this.lengths[ordinal] = codes.length;
    for (let i = 0; i < codes.length; i++) this.pool[this.poolUsed++] = codes[i]!;
    this.codes[ordinal] = MANY_VALUES;
    this.postings = null;
  }

  private reservePool(extra: number): void {
    if (this.poolUsed + extra <= this.pool.length) return;
    this.pool = grown(this.pool, Math.max(1024, (this.poolUsed + extra) * 2));
  }

  /** Rewrites the pool without the ranges of replaced or removed documents. */
  private compactPool(): void {
    const starts = this.starts!;
    const lengths = this.lengths!;
    const pool = new Uint32Array(Math.max(1024, (this.poolUsed - this.poolGarbage) * 2));
    let used = 0;
    for (let ordinal = 0; ordinal < this.codes.length; ordinal++) {
      if (this.codes[ordinal] !== MANY_VALUES) continue;
      const start = starts[ordinal]!;
      pool.set(this.pool.subarray(start, start + lengths[ordinal]!), used);
      starts[ordinal] = used;
      used += lengths[ordinal]!;
    }
    this.pool = pool;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  private buildPostings(end: number): Posting[] {
    const counts = new Uint32Array(this.dictionary.size);
    for (let ordinal = 0; ordinal < end; ordinal++) this.countInto(ordinal, counts);
    const words = wordCount(end);
    const postings: Posting[] = [];
    const fill = new Uint32Array(counts.length);
    for (let code = 0; code < counts.length; code++) {
      const dense = choosesBitset(counts[code]!, words);
      postings.push({ dense, data: new Uint32Array(dense ? words : counts[code]!) });
    }
    for (let ordinal = 0; ordinal < end; ordinal++) {
      for (let i = 0, n = this.valueCount(ordinal); i < n; i++) {
        const code = this.codeAt(ordinal, i);
        const posting = postings[code]!;
        if (posting.dense) posting.data[ordinal >>> 5]! |= 1 << (ordinal & 31);
        else posting.data[fill[code]!++] = ordinal;
      }
    }
    return postings;
  }
}

/** Every code must name a dictionary value, and documents with several values must have their pool range. */
function checkFacetData({ values, codes, manyLengths, pool }: FacetColumnData): void {
  const fail = (detail: string) => new Error(`search engine snapshot is corrupt: facet column ${detail}`);
  if (manyLengths.length !== codes.length) throw fail('tables differ in length');
  let total = 0;
  for (let ordinal = 0; ordinal < codes.length; ordinal++) {
    const code = codes[ordinal]!;
    const length = manyLengths[ordinal]!;
    total += length;
    if (length > 0 ? code !== MANY_VALUES || length < 2 : code !== NO_VALUE && code >= values.length)
      throw fail(`has a bad code at ordinal ${ordinal}`);
  }
  if (total !== pool.length) throw fail('pool does not match its lengths');
  for (let i = 0; i < pool.length; i++) if (pool[i]! >= values.length) throw fail('pool has a bad code');
}

function grown(array: Uint32Array, length: number): Uint32Array {
  const next = new Uint32Array(length);
  next.set(array.subarray(0, Math.min(array.length, length)));
  return next;
}
