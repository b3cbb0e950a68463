import { $, api, formatDate, h, keepFresh, redrawOnResize, showError } from './console.js';
import { cell, numCell } from './console-tables.js';
import { siteMissing, sitePage } from './search-console.js';
import { termChart } from './term-chart.js';

const page = sitePage();
const REFRESH_MS = 30000;
const ROWS = 10;
let reports = null;

/** An SVG bar chart of terms; each bar carries its numbers for tooltips and tests. */
function drawTerms(container, report, kind) {
  const width = Math.max(260, Math.round(container.clientWidth || 600));
  const model = termChart(report.terms, width);
  const label = `${kind}: ${report.terms.map((t) => `${t.term} ${t.count}`).join(', ') || 'none'}`;
  container.replaceChildren(
    h(
      'svg',
      { viewBox: `0 0 ${model.width} ${model.height}`, role: 'img', 'aria-label': label },
      model.bars.map((bar) =>
        h(
          'g',
          { class: 'term', 'data-term': bar.term, 'data-count': bar.count },
          h('title', {
            text: `${bar.term}: ${bar.count} search${bar.count === 1 ? '' : 'es'}, ${bar.averageHits} results on average`,
          }),
          h('text', { class: 'term-label', x: bar.labelX, y: bar.textY, 'text-anchor': 'end', text: bar.label }),
          h('rect', { x: bar.x, y: bar.y, width: bar.width, height: bar.height, rx: 3 }),
          h('text', { class: 'term-count', x: bar.valueX, y: bar.textY, text: bar.count }),
        ),
      ),
      model.empty
        ? h('text', {
            class: 'nodata',
            x: model.width / 2,
            y: model.height / 2 + 4,
            'text-anchor': 'middle',
            text: 'No searches in this period',
          })
        : null,
    ),
  );
}

function draw() {
  if (!reports) return;
  drawTerms($('top-chart'), reports.top, 'Top terms');
  drawTerms($('zero-chart'), reports.zero, 'Terms that found nothing');
  const { top, zero } = reports;
  const since = top.from
    ? `since ${new Date(top.from).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' })} (UTC)`
    : 'all time';
  const before = top.previousPeriodSearches === null ? '' : `, ${top.previousPeriodSearches} in the period before`;
  $('period-summary').textContent =
    `${top.searches} search${top.searches === 1 ? '' : 'es'} ${since}${before}; ${zero.searches} found nothing.`;
}

function live(report) {
  $('stat-minute').textContent = report.searchesLastMinute;
  $('stat-hour').textContent = report.searchesLastHour;
  $('stat-today').textContent = report.searchesToday;
  $('stat-zero').textContent = report.zeroResultsToday;
  const rows = report.latest.map((s) =>
    h(
      'tr',
      {},
      cell('Term', s.term),
      cell('Locale', s.locale),
      numCell('Results', s.numFound),
      cell('User', s.userId ?? '—'),
      cell('When', formatDate(s.searchedAt)),
    ),
  );
  document.querySelector('#latest tbody').replaceChildren(...rows);
  $('latest-status').textContent = report.latest.length ? '' : 'No searches recorded yet.';
}

async function load() {
  const period = $('period').value;
  try {
    const [top, zero, now] = await Promise.all([
      api('GET', `${page.path}/metrics/top-terms/${period}/${ROWS}`),
      api('GET', `${page.path}/metrics/zero-result-terms/${period}/${ROWS}`),
      api('GET', `${page.path}/metrics/live?rows=20`),
    ]);
    reports = { top, zero };
    $('error').hidden = true;
    draw();
    live(now);
    document.body.dataset.loadedAt = String(Date.now());
  } catch (error) {
    showError(error);
  }
}

redrawOnResize(draw);

async function start() {
  try {
    await page.load();
  } catch (error) {
    showError(error);
    siteMissing(error);
    return;
  }
  const refresh = keepFresh(load, REFRESH_MS);
  $('period').addEventListener('change', refresh);
  $('refresh').addEventListener('click', refresh);
}

start();
