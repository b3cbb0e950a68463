// String keys ↔ the integer labels a native index stores; labels of removed keys are handed out again, so they stay
// dense and the map serialises as one array.

export class KeyLabels {
  /** keys[label]: the key holding that label, or null when the label is free. */
  private readonly keys: Array<string | null> = [];
  private readonly labels = new Map<string, number>();
  private readonly free: number[] = [];

  get size(): number {
    return this.labels.size;
  }

  has(key: string): boolean {
    return this.labels.has(key);
  }

  labelOf(key: string): number | undefined {
    return this.labels.get(key);
  }

  keyOf(label: number): string | undefined {
    return this.keys[label] ?? undefined;
  }

  /** A label for a key not yet in the map. */
  add(key: string): number {
    const label = this.free.pop() ?? this.keys.length;
    this.keys[label] = key;
    this.labels.set(key, label);
    return label;
  }

  /** The label the key had, now free. */
  remove(key: string): number | undefined {
    const label = this.labels.get(key);
    if (label === undefined) return undefined;
    this.labels.delete(key);
    this.keys[label] = null;
    this.free.push(label);
    return label;
  }

  toJSON(): Array<string | null> {
    return this.keys;
  }

  static fromJSON(value: unknown): KeyLabels {
    const map = new KeyLabels();
    if (!Array.isArray(value)) throw new Error('not a serialized vector index: bad key map');
    value.forEach((key: unknown, label) => {
      if (key === null) {
        map.keys.push(null);
        map.free.push(label);
      } else if (typeof key === 'string' && !map.labels.has(key)) {
        map.keys.push(key);
        map.labels.set(key, label);
      } else {
        throw new Error('not a serialized vector index: bad key map');
      }
    });
    return map;
  }
}
