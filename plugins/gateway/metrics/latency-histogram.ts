// Log-scale buckets 2% wide: a percentile read from them is within about 1% of the true value,
// and a minute of traffic to one mapping fits in a few hundred buckets whatever its volume.
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

/** The bucket of a duration in microseconds. */
export function bucketOf(micros: number): number {
  return micros <= 1 ? 0 : Math.ceil(Math.log(micros) / LOG_GROWTH);
}

/** A bucket's representative duration in milliseconds (its geometric middle). */
export function bucketMillis(bucket: number): number {
  return bucket === 0 ? 0.001 : GROWTH ** (bucket - 0.5) / 1000;
}

/** Sparse counts per bucket; mergeable, so minutes and processes add up into any window. */
export class LatencyHistogram {
  readonly counts = new Map<number, number>();
  total = 0;

  add(bucket: number, n = 1): void {
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + n);
    this.total += n;
  }

  merge(other: LatencyHistogram | Record<string, number>): void {
    const entries =
      other instanceof LatencyHistogram
        ? other.counts.entries()
        : Object.entries(other).map(([b, n]) => [Number(b), n] as const);
    for (const [bucket, n] of entries) this.add(bucket, n);
  }

  /** The duration (ms) at or below which a fraction `p` of the samples fall; null when empty. */
  percentile(p: number): number | null {
    if (this.total === 0) return null;
    const rank = Math.max(1, Math.ceil(p * this.total));
    let seen = 0;
    for (const bucket of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(bucket)!;
      if (seen >= rank) return Math.round(bucketMillis(bucket) * 100) / 100;
    }
    return null;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
