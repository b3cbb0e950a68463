import type { FacetColumn } from './facet-column.js';
import type { NumberColumn } from './number-column.js';
import { andInto, orInto } from './postings.js';
import type { StringColumn } from './string-column.js';

/** One FieldFilter compiled against the columns: a per-document test, and a bitset when postings allow. */
export interface CompiledFilter {
  readonly field: string;
  test(ordinal: number): boolean;
  /** The passing ordinals below `end` as bitset words (ANDed with `live`), or null when only `test` exists. */
  bitset(live: Uint32Array, end: number): Uint32Array | null;
}

/** Facet values, any (OR) or all (AND) of which the document must carry. */
export class FacetValueFilter implements CompiledFilter {
  /** selected[code] = 1 for the filter's values. */
  private readonly selected: Uint8Array;
  private readonly codes: number[];
  /** AND: how many selected values a document needs (Infinity when a value is unknown: nobody has it). */
  private readonly need: number;

  constructor(
    readonly field: string,
    private readonly column: FacetColumn,
    values: string[],
    private readonly all: boolean,
  ) {
    this.selected = new Uint8Array(column.dictionary.size);
    this.codes = [];
    let unknown = false;
    for (const value of values) {
      const code = column.dictionary.codeOf(value);
      if (code === undefined) unknown = true;
      else if (this.selected[code] === 0) {
        this.selected[code] = 1;
        this.codes.push(code);
      }
    }
    this.need = all ? (unknown ? Infinity : this.codes.length) : 1;
  }

  test(ordinal: number): boolean {
    const n = this.column.countSelected(ordinal, this.selected);
    return this.all ? n === this.need : n > 0;
  }

  bitset(live: Uint32Array, end: number): Uint32Array {
    const postings = this.column.postingsBelow(end);
    if (this.all) {
      const words = live.slice();
      if (this.need === Infinity) return words.fill(0);
      for (const code of this.codes) andInto(words, postings[code]!);
      return words;
    }
    const words = new Uint32Array(live.length);
    for (const code of this.codes) orInto(words, postings[code]!);
    for (let w = 0; w < words.length; w++) words[w]! &= live[w]!;
    return words;
  }
}

/** Inclusive ranges over a number field (an exact value is a one-point range), any or all of which hold. */
export class NumberRangeFilter implements CompiledFilter {
  private readonly lows: Float64Array;
  private readonly highs: Float64Array;

  constructor(
    readonly field: string,
    private readonly column: NumberColumn,
    ranges: Array<[number, number]>,
    private readonly all: boolean,
  ) {
    this.lows = Float64Array.from(ranges, (range) => range[0]);
    this.highs = Float64Array.from(ranges, (range) => range[1]);
  }

  test(ordinal: number): boolean {
    const value = this.column.values[ordinal]!;
    // NaN (no value) fails every comparison, so it is in no range.
    for (let i = 0; i < this.lows.length; i++) {
      const inside = value >= this.lows[i]! && value <= this.highs[i]!;
      if (inside !== this.all) return inside;
    }
    return this.all;
  }

  bitset(): null {
    return null;
  }
}

/** Exact values of a string sort field (one value per document). */
export class StringValueFilter implements CompiledFilter {
  private readonly selected: Uint8Array;
  private readonly impossible: boolean;

  constructor(
    readonly field: string,
    private readonly column: StringColumn,
    values: string[],
    all: boolean,
  ) {
    this.selected = new Uint8Array(column.dictionary.size);
    const distinct = new Set(values);
    let known = 0;
    for (const value of distinct) {
      const code = column.dictionary.codeOf(value);
      if (code !== undefined) {
        this.selected[code] = 1;
        known++;
      }
    }
    // A document has one value, so it cannot carry two different ones, nor an unknown one.
    this.impossible = all ? distinct.size > 1 || known < distinct.size : known === 0;
  }

  test(ordinal: number): boolean {
    if (this.impossible) return false;
    const code = this.column.codes[ordinal]!;
    return code < this.selected.length && this.selected[code] === 1;
  }

  bitset(): null {
    return null;
  }
}

/** Passes what the inner filter passes, and documents with no value for the field (targeting rules). */
export class OrMissingFilter implements CompiledFilter {
  readonly field: string;

  constructor(
    private readonly inner: CompiledFilter,
    private readonly missing: (ordinal: number) => boolean,
  ) {
    this.field = inner.field;
  }

  test(ordinal: number): boolean {
    return this.inner.test(ordinal) || this.missing(ordinal);
  }

  bitset(): null {
    return null;
  }
}

/** A filter on a field without a column: no document has a value for it, so none passes. */
export class NoValueFilter implements CompiledFilter {
  constructor(readonly field: string) {}

  test(): boolean {
    return false;
  }

  bitset(live: Uint32Array): Uint32Array {
    return new Uint32Array(live.length);
  }
}

/** Every, some or none of several filters (FilterSpec.require): named by no field, so no facet count ignores it. */
export class ConditionFilter implements CompiledFilter {
  readonly field = '';

  constructor(
    private readonly parts: CompiledFilter[],
    private readonly mode: 'all' | 'any' | 'none',
  ) {}

  test(ordinal: number): boolean {
    if (this.mode === 'all') return this.parts.every((part) => part.test(ordinal));
    const some = this.parts.some((part) => part.test(ordinal));
    return this.mode === 'any' ? some : !some;
  }

  bitset(): null {
    return null;
  }
}
