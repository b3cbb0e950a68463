// Types of chart-model.js (a browser module served as written) for the tests that import it in Node.

export interface ReportBucket {
  t: string | number;
  count: number;
  errors?: number;
  p50Ms?: number | null;
  p95Ms?: number | null;
  p99Ms?: number | null;
}
export interface ReportMapping {
  mappingId: string;
  name?: string;
  context: string;
  count: number;
  errorRate?: number;
  p50Ms?: number | null;
  p95Ms?: number | null;
  p99Ms?: number | null;
  series: ReportBucket[];
}
export interface ResponseTimeReport {
  window: { from: string | number; to: string | number; bucketSeconds: number };
  mappings: ReportMapping[];
}
export interface Size {
  width: number;
  height: number;
}
export type Metric = 'p50Ms' | 'p95Ms' | 'p99Ms';

export interface LinePoint {
  t: number;
  value: number;
  count: number;
  x: number;
  y: number;
}
export interface LatencyChart {
  kind: 'latency';
  metric: Metric;
  size: Size;
  from: number;
  to: number;
  xTicks: Array<{ t: number; x: number }>;
  yTicks: Array<{ value: number; y: number }>;
  lines: Array<{ mappingId: string; name?: string; context: string; color: string; path: string; points: LinePoint[] }>;
  empty: boolean;
}
export interface BarSegment {
  mappingId: string;
  name?: string;
  color: string;
  count: number;
  errors: number;
  y: number;
  height: number;
}
export interface RequestChart {
  kind: 'requests';
  size: Size;
  from: number;
  to: number;
  xTicks: Array<{ t: number; x: number }>;
  yTicks: Array<{ value: number; y: number }>;
  bars: Array<{ t: number; count: number; errors: number; x: number; width: number; segments: BarSegment[] }>;
  total: number;
  empty: boolean;
}

export const PALETTE: string[];
export const MARGIN: { top: number; right: number; bottom: number; left: number };
export function toMillis(t: string | number): number;
export function niceTicks(max: number, count?: number): number[];
export function timeTicks(from: number, to: number, count?: number): number[];
export function chartSeries(report: ResponseTimeReport): Array<ReportMapping & { color: string }>;
export function latencyChart(report: ResponseTimeReport, metric: Metric, size: Size): LatencyChart;
export function requestChart(report: ResponseTimeReport, size: Size): RequestChart;
