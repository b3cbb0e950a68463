/**
 * Frequent terms' slots as one byte per ordinal (slot + 1; 0 when the document lacks the term), kept for the
 * terms queries use, least recently used out first, within a byte budget, and all dropped on the index's
 * next write. An AND whose rarest term leaves a few hundred candidates then tests each of them against a
 * term of thousands of documents with one read, instead of walking the term's whole list: on the Debian
 * corpus the second term of a two-word query has 14,000 documents on average, against 1,500 for the first.
 *
 * A use is a stamp on the entry, not a delete and set of the map: a map rebuilt by churn leaves V8 a chain of
 * dropped tables that scavenges keep alive once one is promoted (see gateway/proxy/deadlines.ts).
 */
export class DenseSlots {
  private readonly arrays = new Map<number, { slots: Uint8Array; used: number }>();
  private bytes = 0;
  private uses = 0;
  private generation = -1;

  constructor(private readonly budgetBytes: number) {}

  /**
   * The term's array, made by `fill` when it is not kept for this generation of the index; undefined when
   * one array alone would exceed the budget.
   */
  get(
    termId: number,
    generation: number,
    ordinalEnd: number,
    fill: (slots: Uint8Array) => void,
  ): Uint8Array | undefined {
    if (generation !== this.generation) this.clear(generation);
    const kept = this.arrays.get(termId);
    if (kept !== undefined && kept.slots.length >= ordinalEnd) {
      kept.used = ++this.uses;
      return kept.slots;
    }
    if (ordinalEnd > this.budgetBytes) return undefined;
    if (kept !== undefined) this.drop(termId);
    while (this.bytes + ordinalEnd > this.budgetBytes) this.drop(this.leastRecentlyUsed());
    const slots = new Uint8Array(ordinalEnd);
    fill(slots);
    this.arrays.set(termId, { slots, used: ++this.uses });
    this.bytes += slots.length;
    return slots;
  }

  /** A scan, on a miss only: the map holds at most budget / ordinals entries (128 on a 63k-document index). */
  private leastRecentlyUsed(): number {
    let oldest = -1;
    let oldestUse = Infinity;
    for (const [termId, { used }] of this.arrays) {
      if (used < oldestUse) {
        oldest = termId;
        oldestUse = used;
      }
    }
    return oldest;
  }

  private drop(termId: number): void {
    const kept = this.arrays.get(termId);
    if (kept === undefined) return;
    this.arrays.delete(termId);
    this.bytes -= kept.slots.length;
  }

  private clear(generation: number): void {
    this.arrays.clear();
    this.bytes = 0;
    this.generation = generation;
  }
}
