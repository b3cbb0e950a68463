// The dashboard's charts as plain numbers: scales, ticks, line paths and stacked bars computed from
// the response-time report, with no DOM, so they can be tested in Node and drawn by chart-svg.js.

export const PALETTE = ['#2f5bea', '#e8590c', '#12b886', '#ae3ec9', '#f59f00', '#1098ad', '#e03131', '#5c940d'];
export const MARGIN = { top: 12, right: 16, bottom: 26, left: 56 };

/** A report time (ISO string, epoch milliseconds or epoch seconds) as epoch milliseconds. */
export function toMillis(t) {
  if (typeof t === 'number') return t < 1e12 ? t * 1000 : t;
  return Date.parse(t);
}

/** Round tick values (1, 2 or 5 times a power of ten) covering [0, max]; at least one step. */
export function niceTicks(max, count = 4) {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks = [];
  for (let value = 0; value < max + step / 2; value += step) ticks.push(Number(value.toPrecision(12)));
  if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

/** Time ticks at round multiples of a step chosen from the window's length. */
export function timeTicks(from, to, count = 6) {
  const steps = [60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);
  const step = steps.find((s) => (to - from) / s <= count) ?? steps[steps.length - 1];
  const ticks = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

// As many time labels as fit side by side without touching (a label is about 70 px wide).
const labelRoom = (width) => Math.max(2, Math.floor(width / 90));

function frame(report, size) {
  const bucketMs = Math.max(1, Number(report.window.bucketSeconds) || 60) * 1000;
  // Whole buckets: the one still filling (now) is drawn as wide as the others, not cut at the edge.
  const from = Math.floor(toMillis(report.window.from) / bucketMs) * bucketMs;
  const to = Math.ceil(toMillis(report.window.to) / bucketMs) * bucketMs;
  const inner = { width: size.width - MARGIN.left - MARGIN.right, height: size.height - MARGIN.top - MARGIN.bottom };
  // Clamped: a bucket that started before the window or ends after it stays inside the plot.
  const x = (t) => MARGIN.left + Math.min(1, Math.max(0, (t - from) / Math.max(1, to - from))) * inner.width;
  return { from, to, inner, x, bucketMs };
}

/** Mappings in a stable order (by context) with their colours. */
export function chartSeries(report) {
  return report.mappings
    .slice()
    .sort((a, b) => String(a.context).localeCompare(String(b.context)))
    .map((mapping, i) => ({ ...mapping, color: PALETTE[i % PALETTE.length] }));
}

/**
 * One line per mapping of the chosen percentile (p50Ms, p95Ms or p99Ms) over time. Buckets without
 * requests break the line rather than drawing it down to zero.
 */
export function latencyChart(report, metric, size) {
  const { from, to, inner, x, bucketMs } = frame(report, size);
  const series = chartSeries(report);
  const values = series.flatMap((s) => s.series.map((b) => b[metric])).filter((v) => typeof v === 'number' && v >= 0);
  const yTicks = niceTicks(values.length ? Math.max(...values) : 0);
  const top = yTicks[yTicks.length - 1];
  const y = (v) => MARGIN.top + inner.height - (v / top) * inner.height;
  const lines = series.map((mapping) => {
    const points = mapping.series
      .map((bucket) => ({ t: toMillis(bucket.t), value: bucket[metric], count: bucket.count }))
      .filter((p) => p.t >= from - bucketMs && p.t <= to)
      .sort((a, b) => a.t - b.t)
      .map((p) => ({
        ...p,
        x: x(p.t + bucketMs / 2),
        y: typeof p.value === 'number' && p.count > 0 ? y(p.value) : null,
      }));
    let path = '';
    let pen = false;
    for (const p of points) {
      if (p.y === null) {
        pen = false;
        continue;
      }
      path += `${pen ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`;
      pen = true;
    }
    return {
      mappingId: mapping.mappingId,
      name: mapping.name,
      context: mapping.context,
      color: mapping.color,
      path,
      points: points.filter((p) => p.y !== null),
    };
  });
  return {
    kind: 'latency',
    metric,
    size,
    from,
    to,
    xTicks: timeTicks(from, to, labelRoom(inner.width)).map((t) => ({ t, x: x(t) })),
    yTicks: yTicks.map((v) => ({ value: v, y: y(v) })),
    lines,
    empty: values.length === 0,
  };
}

/** Requests per time bucket, stacked by mapping, errors counted alongside. */
export function requestChart(report, size) {
  const { from, to, inner, x, bucketMs } = frame(report, size);
  const series = chartSeries(report);
  const buckets = new Map();
  for (const mapping of series) {
    for (const bucket of mapping.series) {
      const t = toMillis(bucket.t);
      if (t < from - bucketMs || t > to || !(bucket.count > 0)) continue;
      const entry = buckets.get(t) ?? { t, count: 0, errors: 0, parts: [] };
      entry.count += bucket.count;
      entry.errors += bucket.errors ?? 0;
      entry.parts.push({
        mappingId: mapping.mappingId,
        name: mapping.name,
        color: mapping.color,
        count: bucket.count,
        errors: bucket.errors ?? 0,
      });
      buckets.set(t, entry);
    }
  }
  const yTicks = niceTicks(Math.max(0, ...[...buckets.values()].map((b) => b.count)), 3);
  const top = yTicks[yTicks.length - 1];
  const height = (n) => (n / top) * inner.height;
  const bars = [...buckets.values()]
    .sort((a, b) => a.t - b.t)
    .map((bucket) => {
      const left = Math.max(MARGIN.left, x(bucket.t));
      const right = Math.min(MARGIN.left + inner.width, x(bucket.t + bucketMs));
      const width = Math.max(1, (right - left) * 0.8);
      let base = MARGIN.top + inner.height;
      const segments = bucket.parts.map((part) => {
        const h = height(part.count);
        base -= h;
        return { ...part, y: base, height: h };
      });
      return {
        t: bucket.t,
        count: bucket.count,
        errors: bucket.errors,
        x: left + (right - left - width) / 2,
        width,
        segments,
      };
    });
  return {
    kind: 'requests',
    size,
    from,
    to,
    xTicks: timeTicks(from, to, labelRoom(inner.width)).map((t) => ({ t, x: x(t) })),
    yTicks: yTicks.map((v) => ({ value: v, y: MARGIN.top + inner.height - height(v) })),
    bars,
    total: bars.reduce((sum, bar) => sum + bar.count, 0),
    empty: bars.length === 0,
  };
}
