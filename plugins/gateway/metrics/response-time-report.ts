import type { Database } from 'vela/plugin';
import type { Mapping } from '../store/mapping-store.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { ResponseTimeRecorder } from './response-time-recorder.js';

const MINUTE_MS = 60_000;
const POINTS = 60;

export interface SeriesPoint {
  t: string;
  count: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

export interface MappingResponseTimes {
  mappingId: string;
  name: string;
  context: string;
  count: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  series: SeriesPoint[];
}

export interface ResponseTimeReport {
  window: { from: string; to: string; bucketSeconds: number };
  mappings: MappingResponseTimes[];
}

interface Row {
  mapping_id: string;
  minute: unknown;
  count: unknown;
  errors: unknown;
  histogram: string;
}

interface Totals {
  count: number;
  errors: number;
  histogram: LatencyHistogram;
}

const emptyTotals = (): Totals => ({ count: 0, errors: 0, histogram: new LatencyHistogram() });

/**
 * The response-time report: per mapping, count, error rate and p50/p95/p99 over a window, plus a
 * series of about 60 points (buckets of whole minutes). Minutes are the stored grain, so the window
 * starts at the minute that holds `from`.
 */
export class ResponseTimeReports {
  constructor(
    private readonly db: Database,
    private readonly recorder: ResponseTimeRecorder,
  ) {}

  async report(windowSeconds: number, mappings: readonly Mapping[]): Promise<ResponseTimeReport> {
    // What this process recorded a moment ago belongs in the answer.
    await this.recorder.flush();
    const to = Date.now();
    const from = to - windowSeconds * 1000;
    const bucketMs = Math.max(1, Math.ceil(windowSeconds / POINTS / 60)) * MINUTE_MS;
    const firstBucket = Math.floor(from / bucketMs) * bucketMs;
    const rows = await this.db<Row>('gateway_response_times')
      .select('mapping_id', 'minute', 'count', 'errors', 'histogram')
      .where('minute', '>=', Math.floor(from / MINUTE_MS) * MINUTE_MS)
      .andWhere('minute', '<=', to);
    const buckets = Math.floor((to - firstBucket) / bucketMs) + 1;
    const byMapping = new Map<string, { total: Totals; series: Totals[] }>();
    for (const mapping of mappings)
      byMapping.set(mapping.id, { total: emptyTotals(), series: Array.from({ length: buckets }, emptyTotals) });
    for (const row of rows) {
      const entry = byMapping.get(row.mapping_id);
      if (!entry) continue;
      const index = Math.max(0, Math.floor((Number(row.minute) - firstBucket) / bucketMs));
      const histogram = JSON.parse(row.histogram) as Record<string, number>;
      for (const totals of [entry.total, entry.series[index]!]) {
        totals.count += Number(row.count);
        totals.errors += Number(row.errors);
        totals.histogram.merge(histogram);
      }
    }
    return {
      window: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucketSeconds: bucketMs / 1000 },
      mappings: mappings.map((mapping) => {
        const { total, series } = byMapping.get(mapping.id)!;
        return {
          mappingId: mapping.id,
          name: mapping.name,
          context: mapping.context,
          count: total.count,
          errorRate: total.count === 0 ? 0 : total.errors / total.count,
          ...percentiles(total.histogram),
          series: series.map((s, i) => ({
            t: new Date(firstBucket + i * bucketMs).toISOString(),
            count: s.count,
            errors: s.errors,
            ...percentiles(s.histogram),
          })),
        };
      }),
    };
  }

  /** Drop rows older than the retention. */
  async prune(retentionDays: number): Promise<number> {
    return Number(
      await this.db('gateway_response_times')
        .where('minute', '<', Date.now() - retentionDays * 86_400_000)
        .delete(),
    );
  }
}

function percentiles(histogram: LatencyHistogram): {
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
} {
  return { p50Ms: histogram.percentile(0.5), p95Ms: histogram.percentile(0.95), p99Ms: histogram.percentile(0.99) };
}
