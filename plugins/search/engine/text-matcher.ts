import type { QueryTermPostings, SlotLists } from './text-index.js';

/** Marks move up by (terms + 1) per query; start over before they would overflow 32 bits. */
const MARK_LIMIT = 0xffffffff - 1024;

/**
 * AND of query terms over the text index's slot lists with typed scratch arrays: no object, Set or array per hit.
 * `mark[o] = base + t` records that ordinal o matched the first t terms of the current query, so the terms
 * are walked once each, rarest first, and only ordinals that matched every earlier term go on.
 * A document's rank is the sum of its per-term slots (each 0..resolution-1, 0 = the term is near the start
 * of its text); for a prefix term the best slot among the index terms it expands to counts.
 */
export class TextMatcher {
  private mark = new Uint32Array(0);
  private score = new Uint32Array(0);
  private termSlot = new Uint8Array(0);
  private base = 0;

  /** Writes the matching ordinals to `ordinals` and their ranks to `ranks`; returns how many. */
  match(terms: QueryTermPostings[], capacity: number, ordinals: Uint32Array, ranks: Uint32Array): number {
    this.reserve(capacity);
    const ordered = terms.slice().sort((a, b) => a.size - b.size);
    const base = this.nextBase(ordered.length);
    let found = 0;
    for (let t = 0; t < ordered.length; t++) {
      const last = t === ordered.length - 1;
      for (const lists of ordered[t]!.lists) {
        found = t === 0 ? this.first(lists, base, ordered.length === 1, ordinals, found) : this.next(lists, base + t, last, ordinals, found);
      }
    }
    const score = this.score;
    for (let i = 0; i < found; i++) ranks[i] = score[ordinals[i]!]!;
    return found;
  }

  /** First (rarest) term: every listed ordinal starts a candidate. */
  private first(lists: SlotLists, base: number, only: boolean, out: Uint32Array, found: number): number {
    const { mark, score, termSlot } = this;
    const matched = base + 1;
    for (let slot = 0; slot < lists.length; slot++) {
      const ids = lists[slot];
      if (ids === undefined) continue;
      for (let i = 0; i < ids.length; i++) {
        const o = ids[i]!;
        if (mark[o] === matched) {
          // Same query term through another prefix expansion: keep the better slot.
          if (slot < termSlot[o]!) score[o] = termSlot[o] = slot;
          continue;
        }
        mark[o] = matched;
        score[o] = termSlot[o] = slot;
        if (only) out[found++] = o;
      }
    }
    return found;
  }

  /** A later term: only ordinals that matched all earlier terms (mark === want) go on. */
  private next(lists: SlotLists, want: number, last: boolean, out: Uint32Array, found: number): number {
    const { mark, score, termSlot } = this;
    const matched = want + 1;
    for (let slot = 0; slot < lists.length; slot++) {
      const ids = lists[slot];
      if (ids === undefined) continue;
      for (let i = 0; i < ids.length; i++) {
        const o = ids[i]!;
        const m = mark[o];
        if (m === want) {
          mark[o] = matched;
          termSlot[o] = slot;
          score[o]! += slot;
          if (last) out[found++] = o;
        } else if (m === matched && slot < termSlot[o]!) {
          score[o]! -= termSlot[o]! - slot;
          termSlot[o] = slot;
        }
      }
    }
    return found;
  }

  private nextBase(termCount: number): number {
    if (this.base + termCount + 1 >= MARK_LIMIT) {
      this.mark.fill(0);
      this.base = 0;
    }
    const base = this.base + 1;
    this.base = base + termCount;
    return base;
  }

  private reserve(capacity: number): void {
    if (this.mark.length >= capacity) return;
    const mark = new Uint32Array(capacity);
    mark.set(this.mark);
    this.mark = mark;
    this.score = new Uint32Array(capacity);
    this.termSlot = new Uint8Array(capacity);
  }
}
