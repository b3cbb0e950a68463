import { MARGIN } from './chart-model.js';
import { h } from './console.js';

function timeLabel(t, spanMs) {
  const date = new Date(t);
  return spanMs > 86400000
    ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function axes(model, formatValue) {
  const { width, height } = model.size;
  const bottom = height - MARGIN.bottom;
  const span = model.to - model.from;
  return [
    h(
      'g',
      { class: 'grid' },
      model.yTicks.map((tick) => h('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: tick.y, y2: tick.y })),
    ),
    h(
      'g',
      { class: 'axis y', 'aria-hidden': 'true' },
      model.yTicks.map((tick) =>
        h('text', { x: MARGIN.left - 8, y: tick.y + 4, 'text-anchor': 'end', text: formatValue(tick.value) }),
      ),
    ),
    h(
      'g',
      { class: 'axis x', 'aria-hidden': 'true' },
      h('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: bottom, y2: bottom }),
      model.xTicks.map((tick) =>
        h('text', { x: tick.x, y: bottom + 17, 'text-anchor': 'middle', text: timeLabel(tick.t, span) }),
      ),
    ),
  ];
}

function svg(model, label, ...content) {
  const { width, height } = model.size;
  return h(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    ...content,
    model.empty
      ? h('text', {
          class: 'nodata',
          x: width / 2,
          y: height / 2,
          'text-anchor': 'middle',
          text: 'No proxied requests in this window',
        })
      : null,
  );
}

export function drawLatencyChart(container, model, formatMs) {
  const label = `${model.metric.replace('Ms', '')} response time per mapping`;
  container.replaceChildren(
    svg(
      model,
      label,
      ...axes(model, formatMs),
      model.lines.map((line) =>
        h(
          'g',
          { class: 'series', 'data-mapping-id': line.mappingId },
          h('path', { d: line.path, stroke: line.color }),
          line.points.map((p) =>
            h(
              'circle',
              { cx: p.x, cy: p.y, r: 4, fill: line.color },
              h('title', {
                text: `${line.context} · ${new Date(p.t).toLocaleTimeString()} · ${formatMs(p.value)} (${p.count} requests)`,
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

export function drawRequestChart(container, model) {
  const label = `Requests per time bucket: ${model.total} in this window`;
  container.replaceChildren(
    svg(
      model,
      label,
      ...axes(model, (v) => String(v)),
      h(
        'g',
        { class: 'bars' },
        model.bars.map((bar) =>
          h(
            'g',
            { class: 'bar', 'data-t': bar.t, 'data-count': bar.count, 'data-errors': bar.errors },
            bar.segments.map((segment) =>
              h(
                'rect',
                {
                  x: bar.x,
                  y: segment.y,
                  width: bar.width,
                  height: Math.max(0, segment.height),
                  fill: segment.color,
                  rx: 1.5,
                  'data-mapping-id': segment.mappingId,
                  'data-count': segment.count,
                },
                h('title', {
                  text: `${segment.name}: ${segment.count} request${segment.count === 1 ? '' : 's'}${segment.errors ? `, ${segment.errors} errors` : ''} at ${new Date(bar.t).toLocaleTimeString()}`,
                }),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
