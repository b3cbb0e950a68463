/**
 * The best `size` entries of a stream, by count (highest first), ties by text in code-unit order: a small
 * sorted array that takes each entry in O(size) at worst and usually in one comparison.
 */
export class TopList {
  private readonly texts: string[] = [];
  private readonly counts: number[] = [];

  constructor(private readonly size: number) {}

  get full(): boolean {
    return this.texts.length >= this.size;
  }

  offer(text: string, count: number): void {
    const n = this.texts.length;
    if (this.size <= 0) return;
    if (n >= this.size && !better(text, count, this.texts[n - 1]!, this.counts[n - 1]!)) return;
    let at = n >= this.size ? n - 1 : n;
    while (at > 0 && better(text, count, this.texts[at - 1]!, this.counts[at - 1]!)) {
      if (at < this.size) {
        this.texts[at] = this.texts[at - 1]!;
        this.counts[at] = this.counts[at - 1]!;
      }
      at--;
    }
    this.texts[at] = text;
    this.counts[at] = count;
  }

  values(): string[] {
    return this.texts.slice();
  }
}

function better(text: string, count: number, otherText: string, otherCount: number): boolean {
  return count > otherCount || (count === otherCount && text < otherText);
}
