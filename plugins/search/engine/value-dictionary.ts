import { compareStrings } from '@vela/search-text';

/**
 * One field's distinct string values, each with a dense integer code (its position in `values`).
 * Codes are never reused, so columns and counts can index plain typed arrays by code. Values are ordered by
 * UTF-16 code units (deterministic, like Solr's index order for ASCII), computed lazily after growth.
 */
export class ValueDictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();
  private ranks: Uint32Array | null = null;

  static from(values: string[]): ValueDictionary {
    const dictionary = new ValueDictionary();
    for (const value of values) dictionary.intern(value);
    return dictionary;
  }

  get size(): number {
    return this.values.length;
  }

  codeOf(value: string): number | undefined {
    return this.codes.get(value);
  }

  intern(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
      this.ranks = null;
    }
    return code;
  }

  /** rank[code] = the value's position in value order. */
  rankByCode(): Uint32Array {
    if (this.ranks === null) {
      const order = Uint32Array.from(this.values.keys());
      const values = this.values;
      order.sort((a, b) => compareStrings(values[a]!, values[b]!));
      const ranks = new Uint32Array(values.length);
      for (let position = 0; position < order.length; position++) ranks[order[position]!] = position;
      this.ranks = ranks;
    }
    return this.ranks;
  }
}
