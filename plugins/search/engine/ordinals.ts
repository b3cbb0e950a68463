import { clearBit, resizeWords, setBit, wordCount } from './bitset.js';

/**
 * External id ↔ dense integer ordinal. Every column and the text index are keyed by ordinal, so ordinals
 * stay small: a removed document's ordinal goes to a free list and is handed to the next new document.
 */
export class OrdinalMap {
  /** Ordinals in use are below `end`. */
  end = 0;
  /** Bitset of the live ordinals. */
  live: Uint32Array;
  private readonly byId = new Map<string, number>();
  private readonly ids: Array<string | null> = [];
  private readonly free: number[] = [];
  private capacityBits: number;

  constructor(capacity = 1024) {
    this.capacityBits = capacity;
    this.live = new Uint32Array(wordCount(capacity));
  }

  /** Length every per-ordinal column must have. */
  get capacity(): number {
    return this.capacityBits;
  }

  get size(): number {
    return this.byId.size;
  }

  ordinalOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  idAt(ordinal: number): string {
    return this.ids[ordinal]!;
  }

  /** A new ordinal for an id not yet present; may raise `capacity` (columns must follow). */
  allocate(id: string): number {
    const ordinal = this.free.length > 0 ? this.free.pop()! : this.end++;
    if (ordinal >= this.capacityBits) this.growTo(this.capacityBits * 2);
    this.ids[ordinal] = id;
    this.byId.set(id, ordinal);
    setBit(this.live, ordinal);
    return ordinal;
  }

  release(ordinal: number): void {
    const id = this.ids[ordinal];
    if (id === null || id === undefined) return;
    this.byId.delete(id);
    this.ids[ordinal] = null;
    clearBit(this.live, ordinal);
    this.free.push(ordinal);
  }

  /** id per ordinal below `end`, null for free ordinals. */
  export(): Array<string | null> {
    return this.ids.slice(0, this.end);
  }

  static restore(ids: Array<string | null>): OrdinalMap {
    const map = new OrdinalMap(Math.max(1024, ids.length));
    map.end = ids.length;
    for (let ordinal = ids.length - 1; ordinal >= 0; ordinal--) {
      const id = ids[ordinal];
      map.ids[ordinal] = id ?? null;
      if (id === null || id === undefined) {
        map.free.push(ordinal);
      } else {
        if (map.byId.has(id)) throw new Error(`search engine snapshot is corrupt: id "${id}" appears twice`);
        map.byId.set(id, ordinal);
        setBit(map.live, ordinal);
      }
    }
    return map;
  }

  private growTo(capacity: number): void {
    this.capacityBits = capacity;
    this.live = resizeWords(this.live, wordCount(capacity));
  }
}
