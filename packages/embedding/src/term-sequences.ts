import { tokenize } from '@vela/search-text';

/** Every training text as a sequence of term ids (stop words left out), with each term's text count. */
export interface TermSequences {
  /** Term of each id, in order of first occurrence. */
  terms: string[];
  /** Number of texts each term occurs in, by id. */
  documentFrequency: Int32Array;
  /** The term ids of all texts, one after the other. */
  tokens: Int32Array;
  /** Text t's ids are tokens[starts[t]] up to tokens[starts[t + 1]]; one more entry than there are texts. */
  starts: Int32Array;
}

/** Reads the texts once, with the keyword index's tokenizer, so the texts may come from a one-pass iterable. */
export function readTermSequences(texts: Iterable<string>, stopWords: ReadonlySet<string>): TermSequences {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const frequency = new GrowingInts();
  const lastText = new GrowingInts();
  const tokens = new GrowingInts();
  const starts = new GrowingInts();
  let text = 0;
  for (const value of texts) {
    if (typeof value !== 'string') throw new TypeError(`training text ${text} is not a string`);
    starts.push(tokens.length);
    for (const token of tokenize(value)) {
      if (token === '' || stopWords.has(token)) continue;
      let id = ids.get(token);
      if (id === undefined) {
        id = terms.length;
        ids.set(token, id);
        terms.push(token);
        frequency.push(0);
        lastText.push(-1);
      }
      tokens.push(id);
      if (lastText.at(id) !== text) {
        lastText.set(id, text);
        frequency.set(id, frequency.at(id) + 1);
      }
    }
    text++;
  }
  starts.push(tokens.length);
  return { terms, documentFrequency: frequency.toArray(), tokens: tokens.toArray(), starts: starts.toArray() };
}

/** An Int32Array that doubles as it fills, so millions of ids cost four bytes each. */
class GrowingInts {
  private items = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.items.length) {
      const larger = new Int32Array(this.items.length * 2);
      larger.set(this.items);
      this.items = larger;
    }
    this.items[this.length++] = value;
  }

  at(index: number): number {
    return this.items[index]!;
  }

  set(index: number, value: number): void {
    this.items[index] = value;
  }

  toArray(): Int32Array {
    return this.items.slice(0, this.length);
  }
}
