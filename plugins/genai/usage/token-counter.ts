/** Characters counted exactly; a longer text is estimated from its first ones. */
export const MAX_COUNTED_CHARS = 32_000;

type Count = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/**
 * Tokens counted when a provider reports no usage (the built-in one never does; some OpenAI-compatible
 * servers do not stream it): gpt-tokenizer's o200k_base encoding, which ships inside the npm package, so
 * nothing is downloaded. For models with other vocabularies the count is an estimate of the same order.
 * The encoding is loaded once, on first use: its tables take about 20 MB of heap and a third of a second of CPU
 * to build, which a runtime that never counts (every provider reports usage, or no one chats) need not pay at
 * each start.
 */
export class TokenCounter {
  private count: Count | null = null;
  private loading: Promise<Count> | null = null;

  private load(): Promise<Count> {
    this.loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
      this.count = m.countTokens as Count;
      return this.count;
    });
    return this.loading;
  }

  /**
   * Tokens of a text; special-token spellings in it are counted as plain text, never refused. Past
   * MAX_COUNTED_CHARS the count of its start is scaled to its length: counting costs time in proportion to
   * the text, and a public chat must not buy that time with a large body.
   */
  async tokens(text: string): Promise<number> {
    if (!text) return 0;
    const count = this.count ?? (await this.load());
    if (text.length <= MAX_COUNTED_CHARS) return count(text, { disallowedSpecial: new Set() });
    const sample = text.slice(0, MAX_COUNTED_CHARS);
    return Math.round((count(sample, { disallowedSpecial: new Set() }) * text.length) / sample.length);
  }
}
