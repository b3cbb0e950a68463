import { emptyCodes, grownCodes, NO_VALUE } from './column-codes.js';
import { ValueDictionary } from './value-dictionary.js';

export interface StringColumnData {
  values: string[];
  codes: Uint32Array;
}

/**
 * One string sort field's value per document ordinal, dictionary-coded so that sorting compares integer
 * ranks (see ValueDictionary.rankByCode) instead of strings.
 */
export class StringColumn {
  readonly dictionary: ValueDictionary;
  codes: Uint32Array;

  constructor(capacity: number, dictionary = new ValueDictionary()) {
    this.dictionary = dictionary;
    this.codes = emptyCodes(capacity);
  }

  grow(capacity: number): void {
    this.codes = grownCodes(this.codes, capacity);
  }

  set(ordinal: number, value: string | null | undefined): void {
    this.codes[ordinal] = typeof value === 'string' ? this.dictionary.intern(value) : NO_VALUE;
  }

  clear(ordinal: number): void {
    this.codes[ordinal] = NO_VALUE;
  }

  export(end: number): StringColumnData {
    return { values: this.dictionary.values, codes: this.codes.slice(0, end) };
  }

  static restore(data: StringColumnData, capacity: number): StringColumn {
    for (let ordinal = 0; ordinal < data.codes.length; ordinal++) {
      const code = data.codes[ordinal]!;
      if (code !== NO_VALUE && code >= data.values.length)
        throw new Error(`search engine snapshot is corrupt: string column has a bad code at ordinal ${ordinal}`);
    }
    const column = new StringColumn(capacity, ValueDictionary.from(data.values));
    column.codes.set(data.codes);
    return column;
  }
}
