import { chartSeries, latencyChart, requestChart } from './chart-model.js';
import { drawLatencyChart, drawRequestChart } from './chart-svg.js';
import { $, api, busy, formatDate, formatMs, h, keepFresh, redrawOnResize, showError } from './console.js';

const REFRESH_MS = 15000;
let metric = 'p50Ms';
let report = null;

const percent = (rate, count) =>
  typeof rate === 'number' && count > 0 ? `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%` : '—';

function draw() {
  if (!report) return;
  const width = Math.max(320, Math.round($('latency-chart').clientWidth || 900));
  drawLatencyChart($('latency-chart'), latencyChart(report, metric, { width, height: 260 }), formatMs);
  drawRequestChart($('requests-chart'), requestChart(report, { width, height: 140 }));
  $('chart-range').textContent =
    `${formatDate(report.window.from)} – ${formatDate(report.window.to)}, one point per ${report.window.bucketSeconds} s`;
  $('legend').replaceChildren(
    ...chartSeries(report).map((s) => {
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = s.color;
      return h('li', {}, swatch, h('code', { text: s.context }));
    }),
  );
}

function summary() {
  const rows = chartSeries(report).map((m) =>
    h(
      'tr',
      { 'data-mapping-id': m.mappingId },
      h(
        'td',
        { 'data-label': 'Mapping' },
        h('a', { href: `/console/mapping/${encodeURIComponent(m.mappingId)}`, text: m.name ?? m.context }),
      ),
      h('td', { 'data-label': 'Context' }, h('code', { text: m.context })),
      h('td', { 'data-label': 'Requests', class: 'num count', text: m.count }),
      h('td', { 'data-label': 'Error rate', class: 'num', text: percent(m.errorRate, m.count) }),
      h('td', { 'data-label': 'p50', class: 'num', text: formatMs(m.p50Ms) }),
      h('td', { 'data-label': 'p95', class: 'num', text: formatMs(m.p95Ms) }),
      h('td', { 'data-label': 'p99', class: 'num', text: formatMs(m.p99Ms) }),
    ),
  );
  document.querySelector('#summary tbody').replaceChildren(...rows);
  const total = report.mappings.reduce((sum, m) => sum + (m.count ?? 0), 0);
  $('summary-status').textContent = report.mappings.length
    ? `${total} proxied request${total === 1 ? '' : 's'} in this window`
    : 'No mappings yet.';
}

function monitoring(checks) {
  const rows = checks
    .slice()
    .sort((a, b) => String(a.context).localeCompare(String(b.context)))
    .map((c) =>
      h(
        'tr',
        { 'data-mapping-id': c.mappingId },
        h('td', { 'data-label': 'Mapping' }, c.name ?? ''),
        h('td', { 'data-label': 'Upstream', class: 'url' }, c.url ?? ''),
        h(
          'td',
          { 'data-label': 'Status' },
          h('span', { class: `badge ${String(c.status).toLowerCase()}`, text: c.status }),
        ),
        h('td', { 'data-label': 'Latency', class: 'num', text: formatMs(c.latencyMs) }),
        h('td', { 'data-label': 'Last checked', text: formatDate(c.lastCheckedAt) }),
        h('td', { 'data-label': 'Since', text: formatDate(c.lastChangeAt) }),
        h('td', { 'data-label': 'Message', text: c.message ?? '' }),
      ),
    );
  document.querySelector('#monitoring tbody').replaceChildren(...rows);
  const count = (status) => checks.filter((c) => c.status === status).length;
  const unknown = count('UNKNOWN');
  $('monitoring-status').textContent = checks.length
    ? `${count('UP')} of ${checks.length} upstreams up${unknown ? `, ${unknown} not checked yet` : ''}`
    : 'No mappings to check yet.';
}

async function load() {
  try {
    const [responseTime, checks] = await Promise.all([
      api('GET', `/api/v2/access/response_time?window=${encodeURIComponent($('window').value)}`),
      api('GET', '/api/v2/monitoring'),
    ]);
    report = responseTime;
    $('error').hidden = true;
    draw();
    summary();
    monitoring(checks);
    document.body.dataset.loadedAt = String(Date.now());
  } catch (error) {
    showError(error);
  }
}

const refresh = keepFresh(load, REFRESH_MS);
$('window').addEventListener('change', refresh);
$('check-now').addEventListener('click', (event) =>
  busy(event.currentTarget, async () => monitoring(await api('POST', '/api/v2/monitoring/check'))),
);
$('refresh').addEventListener('click', refresh);
document.querySelectorAll('.segmented button').forEach((button) => {
  button.addEventListener('click', () => {
    metric = button.dataset.metric;
    for (const b of document.querySelectorAll('.segmented button'))
      b.setAttribute('aria-pressed', String(b === button));
    draw();
  });
});
redrawOnResize(draw);
