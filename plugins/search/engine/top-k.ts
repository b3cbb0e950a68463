/** Orders two items (indexes into the caller's typed arrays): negative when `a` comes first. */
export type Compare = (a: number, b: number) => number;

/**
 * Keeps the best `k` items seen so far: a binary heap whose root is the worst kept item, so a new item
 * costs one comparison when it does not make the cut and O(log k) when it does.
 */
export class BoundedHeap {
  private readonly items: Uint32Array;
  private size = 0;

  constructor(
    readonly k: number,
    private readonly compare: Compare,
  ) {
    this.items = new Uint32Array(k);
  }

  get count(): number {
    return this.size;
  }

  push(item: number): void {
    const items = this.items;
    if (this.size < this.k) {
      let at = this.size++;
      // Sift up: parents must be worse (compare > 0) than their children.
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (this.compare(items[parent]!, item) >= 0) break;
        items[at] = items[parent]!;
        at = parent;
      }
      items[at] = item;
    } else if (this.k > 0 && this.compare(item, items[0]!) < 0) {
      this.siftDown(item);
    }
  }

  /** The kept items, best first. */
  sorted(): Uint32Array {
    return this.items.slice(0, this.size).sort(this.compare);
  }

  private siftDown(item: number): void {
    const items = this.items;
    const size = this.size;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.compare(items[child + 1]!, items[child]!) > 0) child++;
      if (this.compare(items[child]!, item) <= 0) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = item;
  }
}

/** The best `k` of the items 0..n-1, best first, without sorting all n when k is small. */
export function selectTop(n: number, k: number, compare: Compare): Uint32Array {
  if (k <= 0 || n === 0) return new Uint32Array(0);
  if (k * 4 >= n) {
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    all.sort(compare);
    return k < n ? all.subarray(0, k) : all;
  }
  const heap = new BoundedHeap(k, compare);
  for (let i = 0; i < n; i++) heap.push(i);
  return heap.sorted();
}
