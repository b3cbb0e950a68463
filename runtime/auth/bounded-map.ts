/**
 * A Map that keeps at most `capacity` entries, dropping the least recently used one: state an attacker
 * can grow (one entry per address or per guessed password) stays bounded, and a flood of new keys pushes
 * out only the oldest entries rather than clearing everything.
 *
 * With `keep`, the entries it holds on to (a limit reached and still in force) go last: a full map drops the
 * oldest other entry first, so flooding it with new keys drops the flood's own entries, not the ones that
 * hold somebody back. A kept entry whose hold has ended goes first; the entry just set never goes, so a map
 * full of kept entries still counts newcomers (then the oldest kept entry goes).
 */
export class BoundedMap<K, V> {
  private readonly held = new Map<K, V>();
  private readonly others = new Map<K, V>();

  constructor(
    private readonly capacity: number,
    private readonly keep?: (value: V) => boolean,
  ) {}

  get(key: K): V | undefined {
    const value = this.held.get(key) ?? this.others.get(key);
    if (value !== undefined) this.place(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.place(key, value);
    if (this.size > this.capacity) this.evict(key);
  }

  delete(key: K): void {
    this.held.delete(key);
    this.others.delete(key);
  }

  get size(): number {
    return this.held.size + this.others.size;
  }

  /** As the most recently used, in the part its value belongs to now. */
  private place(key: K, value: V): void {
    this.delete(key);
    (this.keep?.(value) ? this.held : this.others).set(key, value);
  }

  private evict(justSet: K): void {
    const [heldKey, heldValue] = oldest(this.held) ?? [];
    if (heldKey !== undefined && !this.keep!(heldValue!)) return void this.held.delete(heldKey);
    const [otherKey] = oldest(this.others) ?? [];
    if (otherKey !== undefined && otherKey !== justSet) return void this.others.delete(otherKey);
    if (heldKey !== undefined) this.held.delete(heldKey);
    else if (otherKey !== undefined) this.others.delete(otherKey);
  }
}

function oldest<K, V>(map: Map<K, V>): [K, V] | undefined {
  return map.entries().next().value;
}
