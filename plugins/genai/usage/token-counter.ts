/** Characters counted exactly; a longer text is estimated from its first ones. */
export const MAX_COUNTED_CHARS = 32_000;

/**
 * A run of 200 characters without whitespace, followed by more. Byte-pair merging costs time in the square of a
 * piece's length (32,000 characters of one "word" took 0.8 s) and no token is anywhere near that long, so a
 * longer run (a base64 blob, a pasted line of x) is counted as if a space cut it every 200 characters: a token
 * more for each cut at most.
 */
const LONG_RUN = /\S{200}(?=\S)/g;

type Count = (text: string, options: { disallowedSpecial: Set<string> }) => number;

let loaded: Promise<Count> | null = null;

/**
 * Tokens of a text, counted in the calling thread with gpt-tokenizer's o200k_base encoding (it ships inside
 * the npm package, nothing is downloaded). The encoding is loaded on first use: its tables take about 20 MB
 * of heap and half a second of CPU to build. Special-token spellings in the text are counted as plain text,
 * never refused. The plugin runs this on the worker pool (token-count-task.ts), not on the event loop.
 */
export async function countTokensHere(text: string): Promise<number> {
  loaded ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens as Count);
  const count = await loaded;
  return count(text.replace(LONG_RUN, '$& '), { disallowedSpecial: new Set() });
}

/**
 * Tokens counted when a provider reports no usage (the built-in one never does; some OpenAI-compatible
 * servers do not stream it). For models with other vocabularies than o200k_base the count is an estimate of
 * the same order. `count` does the counting of at most MAX_COUNTED_CHARS characters: the plugin passes a
 * worker-pool task, so that neither loading the encoding nor counting holds up the other requests of the
 * process; in this thread by default, and when the pool cannot (it has closed: the runtime is stopping).
 */
export class TokenCounter {
  constructor(private readonly count: (text: string) => Promise<number> = countTokensHere) {}

  /**
   * Tokens of a text. Past MAX_COUNTED_CHARS the count of its start is scaled to its length: counting costs
   * time in proportion to the text, and a public chat must not buy that time with a large body.
   */
  async tokens(text: string): Promise<number> {
    if (!text) return 0;
    const count = (piece: string) => this.count(piece).catch(() => countTokensHere(piece));
    if (text.length <= MAX_COUNTED_CHARS) return count(text);
    const sample = text.slice(0, MAX_COUNTED_CHARS);
    return Math.round(((await count(sample)) * text.length) / sample.length);
  }
}
