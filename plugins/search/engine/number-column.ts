/** One numeric field's value per document ordinal; NaN stands for "no value" (null). */
export class NumberColumn {
  values: Float64Array;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity).fill(Number.NaN);
  }

  grow(capacity: number): void {
    if (capacity <= this.values.length) return;
    const values = new Float64Array(capacity).fill(Number.NaN);
    values.set(this.values);
    this.values = values;
  }

  set(ordinal: number, value: number | null | undefined): void {
    this.values[ordinal] = typeof value === 'number' ? value : Number.NaN;
  }

  clear(ordinal: number): void {
    this.values[ordinal] = Number.NaN;
  }

  export(end: number): Float64Array {
    return this.values.slice(0, end);
  }

  static restore(values: Float64Array, capacity: number): NumberColumn {
    const column = new NumberColumn(capacity);
    column.values.set(values);
    return column;
  }
}
