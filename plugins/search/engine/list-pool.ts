/**
 * Many growable lists of 32-bit integers in one Uint32Array, each a block (start, length, capacity) of it.
 * A list that outgrows its block moves to the end of the pool with twice the room; the old block becomes
 * garbage, reclaimed by compaction. Compared with one JS array per list it takes 4 bytes per value instead
 * of 8, and no object header or growth slack per list: the text index keeps ~150,000 lists (most of them
 * with one to four values) and ~2.9 million values on the 63k-document Debian corpus.
 *
 * Views (`view`) are valid until the next write to the pool: a write may move or compact the blocks.
 */
export class ListPool {
  private starts: Uint32Array;
  private lengths: Uint32Array;
  private capacities: Uint32Array;
  private data: Uint32Array;
  /** End of the blocks handed out. */
  private used = 0;
  /** Room in `data` below `used` that no list's block covers any more. */
  private garbage = 0;
  private values = 0;

  constructor(lists = 1024) {
    this.starts = new Uint32Array(lists);
    this.lengths = new Uint32Array(lists);
    this.capacities = new Uint32Array(lists);
    this.data = new Uint32Array(1024);
  }

  /** Values held in all lists. */
  get size(): number {
    return this.values;
  }

  length(list: number): number {
    return list < this.lengths.length ? this.lengths[list]! : 0;
  }

  /** The list's values in order (a view; see the class note), or undefined when it is empty. */
  view(list: number): Uint32Array | undefined {
    const length = this.length(list);
    if (length === 0) return undefined;
    const start = this.starts[list]!;
    return this.data.subarray(start, start + length);
  }

  append(list: number, value: number): void {
    this.reserveLists(list + 1);
    const length = this.lengths[list]!;
    if (length === this.capacities[list]!) this.move(list, length === 0 ? 1 : length * 2);
    this.data[this.starts[list]! + length] = value;
    this.lengths[list] = length + 1;
    this.values++;
  }

  /** Replaces the list's values. */
  set(list: number, items: ArrayLike<number>): void {
    this.reserveLists(list + 1);
    if (items.length > this.capacities[list]!) {
      this.clear(list);
      this.move(list, items.length);
    }
    const start = this.starts[list]!;
    for (let i = 0; i < items.length; i++) this.data[start + i] = items[i]!;
    this.values += items.length - this.lengths[list]!;
    this.lengths[list] = items.length;
  }

  /** Removes the first occurrence of `value`, keeping the order of the rest; false when it is not there. */
  remove(list: number, value: number): boolean {
    const length = this.length(list);
    if (length === 0) return false;
    const start = this.starts[list]!;
    const at = this.data.subarray(start, start + length).indexOf(value);
    if (at < 0) return false;
    this.data.copyWithin(start + at, start + at + 1, start + length);
    this.lengths[list] = length - 1;
    this.values--;
    return true;
  }

  clear(list: number): void {
    if (list >= this.capacities.length) return;
    this.garbage += this.capacities[list]!;
    this.values -= this.lengths[list]!;
    this.starts[list] = 0;
    this.lengths[list] = 0;
    this.capacities[list] = 0;
  }

  /**
   * Gives back the room that moves and removals left behind once it exceeds the values themselves: called
   * after a batch of writes. A lower bar made a bulk load of the Debian corpus compact after nearly every
   * batch (53 compactions for 32 batches, a tenth of the build). The free room past the last block is not
   * counted: a growth has just made it (at most a third of the pool) for the next batch, and cutting it made
   * the import's slices of 250 documents compact and grow again in turn (33 compactions against 22).
   */
  trim(): void {
    const live = this.values;
    if (this.used - live > live + 4096) this.compact(0);
  }

  /** Gives the list a new block of `capacity` at the end of the pool, with its values. */
  private move(list: number, capacity: number): void {
    this.reserve(capacity);
    const start = this.starts[list]!;
    const length = this.lengths[list]!;
    this.data.copyWithin(this.used, start, start + length);
    this.garbage += this.capacities[list]!;
    this.starts[list] = this.used;
    this.capacities[list] = capacity;
    this.used += capacity;
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.data.length) return;
    if (this.garbage > (this.used - this.garbage) / 2) this.compact(extra);
    if (this.used + extra <= this.data.length) return;
    const data = new Uint32Array(Math.max(this.used + extra, Math.floor(this.data.length * 1.5)));
    data.set(this.data.subarray(0, this.used));
    this.data = data;
  }

  /**
   * Rewrites the pool without garbage, each block cut to its length plus an eighth: cut to the length
   * exactly, the next batch of a bulk load would move nearly every list again (a profile of the Debian
   * import spent a fifth of the engine's time moving and compacting). `extra`: room wanted at the end.
   */
  private compact(extra: number): void {
    let used = 0;
    for (let list = 0; list < this.lengths.length; list++) used += headroom(this.lengths[list]!);
    const data = new Uint32Array(Math.max(1024, used + extra + (used >>> 4)));
    const old = this.data;
    used = 0;
    for (let list = 0; list < this.lengths.length; list++) {
      const length = this.lengths[list]!;
      if (length === 0) {
        this.starts[list] = this.capacities[list] = 0;
        continue;
      }
      const start = this.starts[list]!;
      // Most lists hold a few values: a loop beats a subarray view per list.
      if (length < 64) for (let i = 0; i < length; i++) data[used + i] = old[start + i]!;
      else data.set(old.subarray(start, start + length), used);
      this.starts[list] = used;
      this.capacities[list] = headroom(length);
      used += this.capacities[list]!;
    }
    this.data = data;
    this.used = used;
    this.garbage = 0;
  }

  private reserveLists(count: number): void {
    if (count <= this.lengths.length) return;
    const size = Math.max(count, this.lengths.length * 2);
    this.starts = grown(this.starts, size);
    this.lengths = grown(this.lengths, size);
    this.capacities = grown(this.capacities, size);
  }
}

function headroom(length: number): number {
  return length + (length >>> 3);
}

function grown(array: Uint32Array, length: number): Uint32Array {
  const next = new Uint32Array(length);
  next.set(array);
  return next;
}
