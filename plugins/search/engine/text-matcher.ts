import type { QueryTermPostings, SlotLists } from './text-index.js';

/** Marks move up by (terms + 1) per query; start over before they would overflow 32 bits. */
const MARK_LIMIT = 0xffffffff - 1024;

/**
 * AND of query terms over the text index's slot lists with typed scratch arrays: no object, Set or array per hit.
 * `mark[o] = base + t` records that ordinal o matched the first t terms of the current query, so the terms
 * are walked once each, rarest first, and only ordinals that matched every earlier term go on. The
 * candidates so far are kept in `ordinals`; a later term given as dense slots (see DenseSlots) is tested
 * on them alone instead of walking its lists.
 * A document's score is the sum over the terms of the term's score for the document's class (slot) on it (see
 * QueryTermPostings.scores); for a prefix term the best class among the index terms it expands to counts.
 */
export class TextMatcher {
  private mark = new Uint32Array(0);
  private score = new Float64Array(0);
  private termSlot = new Uint8Array(0);
  private base = 0;

  /** Writes the matching ordinals to `ordinals` and their scores to `scores`; returns how many. */
  match(terms: QueryTermPostings[], capacity: number, ordinals: Uint32Array, scores: Float64Array): number {
    this.reserve(capacity);
    const ordered = terms.slice().sort((a, b) => a.size - b.size);
    const base = this.nextBase(ordered.length);
    let found = 0;
    for (let t = 0; t < ordered.length && (t === 0 || found > 0); t++) {
      const { dense, lists, scores: weights } = ordered[t]!;
      if (t > 0 && dense !== undefined) {
        found = this.testDense(dense, weights, base + t, ordinals, found);
        continue;
      }
      for (const slotLists of lists) found = this.walk(slotLists, base + t, t === 0, ordinals, found);
      if (t === 0) for (let i = 0; i < found; i++) this.score[ordinals[i]!] = 0;
      found = this.keepMarked(base + t + 1, weights, ordinals, found);
    }
    const score = this.score;
    for (let i = 0; i < found; i++) scores[i] = score[ordinals[i]!]!;
    return found;
  }

  /**
   * A term's lists: the ordinals that matched every earlier term (mark === want) are marked want + 1 with their
   * best slot (a prefix term's expansions may list one twice), scored in keepMarked (one addition per term, so
   * equal scores come out equal). The first (rarest) term's ordinals start the candidates, appended to `out`.
   */
  private walk(lists: SlotLists, want: number, first: boolean, out: Uint32Array, found: number): number {
    const { mark, termSlot } = this;
    const matched = want + 1;
    for (let slot = 0; slot < lists.length; slot++) {
      const ids = lists[slot];
      if (ids === undefined) continue;
      for (let i = 0; i < ids.length; i++) {
        const o = ids[i]!;
        const m = mark[o];
        if (m === matched) {
          if (slot < termSlot[o]!) termSlot[o] = slot;
          continue;
        }
        if (!first && m !== want) continue;
        mark[o] = matched;
        termSlot[o] = slot;
        if (first) out[found++] = o;
      }
    }
    return found;
  }

  /** Keeps the candidates the last term marked, adding the term's score for their slot. */
  private keepMarked(matched: number, weights: Float64Array, candidates: Uint32Array, found: number): number {
    const { mark, score, termSlot } = this;
    let kept = 0;
    for (let i = 0; i < found; i++) {
      const o = candidates[i]!;
      if (mark[o] !== matched) continue;
      score[o]! += weights[termSlot[o]!]!;
      candidates[kept++] = o;
    }
    return kept;
  }

  /** A later term as dense slots: keeps the candidates on it, marked `want + 1` for the terms after it. */
  private testDense(
    dense: Uint8Array,
    weights: Float64Array,
    want: number,
    candidates: Uint32Array,
    found: number,
  ): number {
    const { mark, score } = this;
    const matched = want + 1;
    let kept = 0;
    for (let i = 0; i < found; i++) {
      const o = candidates[i]!;
      const slot = dense[o]!;
      if (slot === 0) continue;
      mark[o] = matched;
      score[o]! += weights[slot - 1]!;
      candidates[kept++] = o;
    }
    return kept;
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
    this.score = new Float64Array(capacity);
    this.termSlot = new Uint8Array(capacity);
  }
}
