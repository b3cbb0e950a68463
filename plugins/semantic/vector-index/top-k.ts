// A bounded min-heap: keeps the k highest scores seen, so a scan costs O(n log k) and O(k) memory.

export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Int32Array;
  private count = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  /** The score a candidate must beat to enter (−∞ until the heap is full; +∞ when it keeps nothing). */
  get threshold(): number {
    if (this.k === 0) return Number.POSITIVE_INFINITY;
    return this.count < this.k ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  offer(id: number, score: number): void {
    if (this.count < this.k) {
      this.scores[this.count] = score;
      this.ids[this.count] = id;
      this.count++;
      this.siftUp(this.count - 1);
    } else if (this.k > 0 && score > this.scores[0]!) {
      this.scores[0] = score;
      this.ids[0] = id;
      this.siftDown(0);
    }
  }

  /** The kept entries, highest score first. */
  sorted(): Array<{ id: number; score: number }> {
    const entries: Array<{ id: number; score: number }> = [];
    for (let i = 0; i < this.count; i++) entries.push({ id: this.ids[i]!, score: this.scores[i]! });
    return entries.sort((a, b) => b.score - a.score);
  }

  private siftUp(at: number): void {
    let child = at;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.scores[parent]! <= this.scores[child]!) return;
      this.swap(parent, child);
      child = parent;
    }
  }

  private siftDown(at: number): void {
    let parent = at;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.count && this.scores[left]! < this.scores[smallest]!) smallest = left;
      if (right < this.count && this.scores[right]! < this.scores[smallest]!) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = score;
    const id = this.ids[a]!;
    this.ids[a] = this.ids[b]!;
    this.ids[b] = id;
  }
}
