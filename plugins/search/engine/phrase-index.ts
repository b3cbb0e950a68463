import { phraseBonus } from '@vela/search-text';
import { lowerBound, SortedStrings } from './sorted-strings.js';

/** What a snapshot keeps of the phrase index: the distinct phrases and, per ordinal, the ones it has. */
export interface PhraseIndexData {
  phrases: string[];
  /** Phrases per ordinal (0 for a free one), ordinals 0 to end - 1. */
  counts: Uint32Array;
  /** Phrase numbers (positions in `phrases`), ordinal by ordinal. */
  ids: Uint32Array;
}

/**
 * Phrases (a word and the next one, as the document's title has them: see suggest/phrases.ts) with the
 * number of live documents that have each, kept in step with the documents: a document's phrases are
 * counted when it is added and uncounted when it is removed or replaced. Autocomplete reads it to complete
 * the last word of a query after the word before it, and relevance gives a bonus to a document whose title
 * has two query terms side by side. Phrases are opaque strings here; the engine does not make them.
 */
export class PhraseIndex {
  private readonly numbers = new Map<string, number>();
  private readonly phrases: string[] = [];
  private frequencies = new Uint32Array(1024);
  /**
   * Per ordinal, the phrase numbers it added: `counts[ordinal]` numbers from `pool[starts[ordinal]]` on.
   * One pool rather than an array per document (a typed array costs about 100 bytes before its first
   * number); removals leave holes, compacted once they are half the pool.
   */
  private pool = new Uint32Array(4096);
  private poolEnd = 0;
  private holes = 0;
  private starts = new Uint32Array(1024);
  private counts = new Uint16Array(1024);
  private readonly inOrder = new SortedStrings();

  add(ordinal: number, phrases: readonly string[] | undefined): void {
    if (!phrases || phrases.length === 0) return;
    this.remove(ordinal);
    if (ordinal >= this.starts.length) this.growOrdinals(ordinal + 1);
    const wanted = Math.min(phrases.length, 0xffff);
    if (this.poolEnd + wanted > this.pool.length) this.growPool(this.poolEnd + wanted);
    const start = this.poolEnd;
    let count = 0;
    for (let p = 0; p < wanted; p++) {
      const id = this.numberOf(phrases[p]!);
      let repeated = false;
      for (let i = start; i < start + count; i++) if (this.pool[i] === id) repeated = true;
      if (repeated) continue;
      this.pool[start + count++] = id;
      this.frequencies[id]!++;
    }
    this.starts[ordinal] = start;
    this.counts[ordinal] = count;
    this.poolEnd += count;
  }

  remove(ordinal: number): void {
    const count = ordinal < this.counts.length ? this.counts[ordinal]! : 0;
    if (count === 0) return;
    const start = this.starts[ordinal]!;
    for (let i = start; i < start + count; i++) this.frequencies[this.pool[i]!]!--;
    this.counts[ordinal] = 0;
    this.holes += count;
    if (this.holes > 4096 && this.holes > this.poolEnd / 2) this.compact();
  }

  /** Documents that have the phrase. */
  frequency(phrase: string): number {
    const id = this.numbers.get(phrase);
    return id === undefined ? 0 : this.frequencies[id]!;
  }

  /**
   * Calls `visit` with each phrase that starts with `prefix` and some live document has, in code-unit
   * order, until it returns false.
   */
  forEachStartingWith(prefix: string, visit: (phrase: string, frequency: number) => boolean | undefined): void {
    const sorted = this.inOrder.all();
    const low = lowerBound(sorted, prefix);
    for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
      const phrase = sorted[i]!;
      const frequency = this.frequencies[this.numbers.get(phrase)!]!;
      if (frequency > 0 && visit(phrase, frequency) === false) return;
    }
  }

  /**
   * Adds @vela/search-text's phraseBonus to `scores[i]` when hit ordinals[i] has the phrase of two query terms
   * next to each other (`idfs`: the terms' idf).
   */
  addBonus(terms: readonly string[], idfs: readonly number[], ordinals: Uint32Array, scores: Float64Array): void {
    const ids: number[] = [];
    const bonuses: number[] = [];
    for (let t = 0; t + 1 < terms.length; t++) {
      const id = this.numbers.get(`${terms[t]} ${terms[t + 1]}`);
      if (id === undefined || this.frequencies[id] === 0) continue;
      ids.push(id);
      bonuses.push(phraseBonus(idfs[t]!, idfs[t + 1]!));
    }
    if (ids.length === 0) return;
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i]!;
      const start = this.starts[ordinal] ?? 0;
      const end = start + (this.counts[ordinal] ?? 0);
      for (let p = 0; p < ids.length; p++) {
        for (let at = start; at < end; at++) {
          if (this.pool[at] !== ids[p]) continue;
          scores[i]! += bonuses[p]!;
          break;
        }
      }
    }
  }

  export(end: number): PhraseIndexData {
    const counts = new Uint32Array(end);
    let total = 0;
    for (let ordinal = 0; ordinal < end; ordinal++)
      total += counts[ordinal] = ordinal < this.counts.length ? this.counts[ordinal]! : 0;
    // Phrases no document has any more are left out, and the others renumbered.
    const renumber = new Int32Array(this.phrases.length).fill(-1);
    const phrases: string[] = [];
    const ids = new Uint32Array(total);
    let at = 0;
    for (let ordinal = 0; ordinal < end; ordinal++) {
      const start = this.starts[ordinal] ?? 0;
      for (let i = start; i < start + counts[ordinal]!; i++) {
        const id = this.pool[i]!;
        if (renumber[id] === -1) {
          renumber[id] = phrases.length;
          phrases.push(this.phrases[id]!);
        }
        ids[at++] = renumber[id]!;
      }
    }
    return { phrases, counts, ids };
  }

  static restore(data: PhraseIndexData, isLive: (ordinal: number) => boolean): PhraseIndex {
    const index = new PhraseIndex();
    const { phrases, counts, ids } = data;
    let at = 0;
    for (let ordinal = 0; ordinal < counts.length; ordinal++) {
      const count = counts[ordinal]!;
      if (count === 0) continue;
      if (!isLive(ordinal))
        throw new Error(`search engine snapshot is corrupt: phrases for ordinal ${ordinal}, which holds no document`);
      if (at + count > ids.length)
        throw new Error('search engine snapshot is corrupt: phrase counts exceed the phrase list');
      const own: string[] = [];
      for (let end = at + count; at < end; at++) {
        const phrase = phrases[ids[at]!];
        if (phrase === undefined) throw new Error('search engine snapshot is corrupt: a phrase number names no phrase');
        own.push(phrase);
      }
      index.add(ordinal, own);
    }
    if (at !== ids.length)
      throw new Error('search engine snapshot is corrupt: phrase counts do not add up to the phrase list');
    return index;
  }

  private growOrdinals(needed: number): void {
    let size = this.starts.length;
    while (size < needed) size *= 2;
    const starts = new Uint32Array(size);
    starts.set(this.starts);
    const counts = new Uint16Array(size);
    counts.set(this.counts);
    this.starts = starts;
    this.counts = counts;
  }

  private growPool(needed: number): void {
    let size = this.pool.length;
    while (size < needed) size *= 2;
    const pool = new Uint32Array(size);
    pool.set(this.pool.subarray(0, this.poolEnd));
    this.pool = pool;
  }

  /** Moves every ordinal's numbers down over the holes removals left. */
  private compact(): void {
    const pool = new Uint32Array(Math.max(4096, this.poolEnd - this.holes));
    let at = 0;
    for (let ordinal = 0; ordinal < this.counts.length; ordinal++) {
      const count = this.counts[ordinal]!;
      if (count === 0) continue;
      pool.set(this.pool.subarray(this.starts[ordinal]!, this.starts[ordinal]! + count), at);
      this.starts[ordinal] = at;
      at += count;
    }
    this.pool = pool;
    this.poolEnd = at;
    this.holes = 0;
  }

  private numberOf(phrase: string): number {
    let id = this.numbers.get(phrase);
    if (id !== undefined) return id;
    id = this.phrases.length;
    // Phrases come joined from words (suggest/phrases.ts), so they are strings of their own, not slices
    // that would keep a whole title alive.
    this.numbers.set(phrase, id);
    this.phrases.push(phrase);
    this.inOrder.add(phrase);
    if (id >= this.frequencies.length) {
      const grown = new Uint32Array(this.frequencies.length * 2);
      grown.set(this.frequencies);
      this.frequencies = grown;
    }
    return id;
  }
}
