// Types of term-chart.js for the tests that import it in Node.
export interface Term {
  term: string;
  count: number;
  averageHits: number;
}
export interface Bar {
  term: string;
  label: string;
  count: number;
  averageHits: number;
  x: number;
  y: number;
  width: number;
  height: number;
  labelX: number;
  valueX: number;
  textY: number;
}
export interface TermChart {
  width: number;
  height: number;
  labelWidth: number;
  bars: Bar[];
  empty: boolean;
}
export const ROW: number;
export const BAR: number;
export const PAD: { top: number; right: number; bottom: number };
export function fitLabel(term: string, room: number): string;
export function termChart(terms: Term[], width: number): TermChart;
