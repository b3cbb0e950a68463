// The order statistics the benchmarks report.

/** The value at percentile `p` (0–100) of ascending `sorted`. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
