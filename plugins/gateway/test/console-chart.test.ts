import test from 'ava';
import {
  latencyChart,
  MARGIN,
  niceTicks,
  type ResponseTimeReport,
  requestChart,
  timeTicks,
  toMillis,
} from '../console/assets/chart-model.js';

const from = Date.UTC(2026, 10, 23, 10, 0, 0);
const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const size = { width: 600, height: 200 };

function report(): ResponseTimeReport {
  return {
    window: { from: iso(from), to: iso(from + 10 * minute), bucketSeconds: 60 },
    mappings: [
      {
        mappingId: 'b',
        name: 'weather',
        context: '/proxy/weather/today',
        count: 5,
        series: [
          { t: iso(from + minute), count: 3, errors: 1, p50Ms: 40, p95Ms: 80, p99Ms: 90 },
          { t: iso(from + 3 * minute), count: 2, errors: 0, p50Ms: 20, p95Ms: 30, p99Ms: 35 },
        ],
      },
      {
        mappingId: 'a',
        name: 'github',
        context: '/proxy/github/users',
        count: 4,
        series: [
          { t: iso(from + minute), count: 4, errors: 0, p50Ms: 10, p95Ms: 12, p99Ms: 15 },
          { t: iso(from + 2 * minute), count: 0, errors: 0, p50Ms: null, p95Ms: null, p99Ms: null },
        ],
      },
    ],
  };
}

test('report times are read as ISO strings, epoch milliseconds or epoch seconds', (t) => {
  t.is(toMillis(iso(from)), from);
  t.is(toMillis(from), from);
  t.is(toMillis(from / 1000), from);
});

test('value ticks are round steps from zero that cover the largest value', (t) => {
  t.deepEqual(niceTicks(7), [0, 2, 4, 6, 8]);
  t.deepEqual(niceTicks(100, 4), [0, 50, 100], 'steps of 1, 2 or 5 times a power of ten');
  const ticks = niceTicks(0.37);
  t.is(ticks[0], 0);
  t.true(ticks[ticks.length - 1]! >= 0.37);
  t.deepEqual(niceTicks(0), [0, 1], 'an empty chart still has an axis');
});

test('time ticks fall on round minutes inside the window', (t) => {
  const ticks = timeTicks(from + 30_000, from + 10 * minute);
  t.true(ticks.length >= 2 && ticks.length <= 6);
  t.true(ticks.every((tick) => tick % minute === 0 && tick >= from + 30_000 && tick <= from + 10 * minute));
});

test('the request chart stacks each bucket by mapping and its bars add up to the report counts', (t) => {
  const chart = requestChart(report(), size);
  t.is(chart.total, 9);
  t.deepEqual(
    chart.bars.map((bar) => [bar.t, bar.count, bar.errors]),
    [
      [from + minute, 7, 1],
      [from + 3 * minute, 2, 0],
    ],
  );
  const first = chart.bars[0]!;
  t.deepEqual(
    first.segments.map((s) => [s.mappingId, s.count]),
    [
      ['a', 4],
      ['b', 3],
    ],
    'mappings in context order, so colours stay put',
  );
  const bottom = size.height - MARGIN.bottom;
  t.is(Math.round(first.segments[0]!.y + first.segments[0]!.height), bottom, 'the first segment stands on the axis');
  t.is(
    Math.round(first.segments[1]!.y + first.segments[1]!.height),
    Math.round(first.segments[0]!.y),
    'the next one stands on it',
  );
  t.true(first.x >= MARGIN.left && first.x + first.width <= size.width - MARGIN.right);
});

test('the window is widened to whole buckets, so the bucket still filling is as wide as the others', (t) => {
  const partial: ResponseTimeReport = {
    window: { from: iso(from + 20_000), to: iso(from + 10 * minute + 20_000), bucketSeconds: 60 },
    mappings: [
      {
        mappingId: 'a',
        context: '/proxy/a/b',
        count: 2,
        series: [
          { t: iso(from + minute), count: 1, errors: 0 },
          { t: iso(from + 10 * minute), count: 1, errors: 0 },
        ],
      },
    ],
  };
  const chart = requestChart(partial, size);
  t.is(chart.from, from);
  t.is(chart.to, from + 11 * minute);
  const [first, last] = chart.bars;
  t.is(Math.round(last!.width * 100), Math.round(first!.width * 100));
  t.true(last!.x + last!.width <= size.width - MARGIN.right);
});

test('a latency line skips buckets without requests instead of dropping to zero', (t) => {
  const chart = latencyChart(report(), 'p50Ms', size);
  const github = chart.lines.find((line) => line.mappingId === 'a')!;
  t.is(github.points.length, 1);
  t.regex(github.path, /^M[\d.]+,[\d.]+$/);
  const weather = chart.lines.find((line) => line.mappingId === 'b')!;
  t.regex(weather.path, /^M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
  t.true(weather.points[0]!.y < weather.points[1]!.y, '40 ms is drawn above 20 ms');
  const top = chart.yTicks[chart.yTicks.length - 1]!;
  t.true(top.value >= 40);
  t.is(top.y, MARGIN.top);
});

test('the percentile switch changes the values drawn', (t) => {
  const p99 = latencyChart(report(), 'p99Ms', size);
  t.deepEqual(
    p99.lines.find((line) => line.mappingId === 'b')!.points.map((p) => p.value),
    [90, 35],
  );
});

test('a report without requests gives empty charts with axes', (t) => {
  const empty: ResponseTimeReport = {
    window: { from: iso(from), to: iso(from + 10 * minute), bucketSeconds: 60 },
    mappings: [],
  };
  const requests = requestChart(empty, size);
  t.true(requests.empty);
  t.is(requests.total, 0);
  t.true(latencyChart(empty, 'p95Ms', size).empty);
  t.true(requests.yTicks.length >= 2);
});
