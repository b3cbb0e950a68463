import { $, ApiError, api, formatDate, h, showError } from './console.js';

const REFRESH_MS = 5000;

/** The newest run of each source, from the run statistics (404 while nothing ran yet). */
async function lastRuns() {
  try {
    const runs = await api('GET', '/api/v2/connector/monitoring/indexing/stats');
    const newest = new Map();
    for (const run of runs) {
      const seen = newest.get(run.source);
      if (!seen || String(run.startTime) > String(seen.startTime)) newest.set(run.source, run);
    }
    return newest;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return new Map();
    throw error;
  }
}

function row(source, run) {
  const status = run ? String(run.status) : 'never run';
  return h(
    'tr',
    { 'data-source': source.name },
    h('td', { 'data-label': 'Source' }, h('code', { text: source.name })),
    h('td', { 'data-label': 'Kind', text: source.kind }),
    h('td', { 'data-label': 'Sites', text: (source.sites ?? []).join(', ') }),
    h('td', { 'data-label': 'Schedule' }, source.schedule ? h('code', { text: source.schedule }) : '—'),
    h(
      'td',
      { 'data-label': 'Last run' },
      h('span', { class: `badge ${status.toLowerCase().replace(/\s+/g, '-')}`, text: status }),
    ),
    h('td', { 'data-label': 'Documents', class: 'num', text: run ? String(run.documents ?? 0) : '—' }),
    h('td', {
      'data-label': 'Per second',
      class: 'num',
      text: run?.documentsPerSecond ? String(run.documentsPerSecond) : '—',
    }),
    h('td', { 'data-label': 'Ended', text: run ? formatDate(run.endTime) : '—' }),
  );
}

async function refresh() {
  try {
    const [sources, runs] = await Promise.all([api('GET', '/api/v2/connector/source'), lastRuns()]);
    const sorted = sources.slice().sort((a, b) => String(a.name).localeCompare(String(b.name)));
    document
      .querySelector('#sources tbody')
      .replaceChildren(...sorted.map((source) => row(source, runs.get(source.name))));
    $('sources-status').textContent = sources.length
      ? `${sources.length} source${sources.length === 1 ? '' : 's'}`
      : 'No sources yet.';
    $('error').hidden = true;
  } catch (error) {
    $('sources-status').textContent = '';
    showError(error);
  }
}

$('refresh').addEventListener('click', refresh);
refresh();
// Runs started elsewhere (the API, a schedule) show up without a reload.
setInterval(refresh, REFRESH_MS);
