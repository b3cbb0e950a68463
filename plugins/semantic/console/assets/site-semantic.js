import { $, api, apiPaths, busy, confirmAction, formatDate, h, showError, showSaved, wireSubmit } from './console.js';
import { checked, list, numberOrNull, setFields, text } from './console-forms.js';
import { cell, countText, numCell, yesNo } from './console-tables.js';
import { siteMissing, sitePage } from './search-console.js';

const page = sitePage();
const form = $('semantic-form');
const BUILTIN = 'builtin';
const NUMBERS = ['passageChars', 'passageOverlap', 'rrfK', 'window'];
const MODES = ['keyword', 'hybrid', 'vector'];
// While documents wait to be embedded the progress is read again this often.
const PROGRESS_MS = 2000;
let site = null;
let instances = [];

/** The LLM instances that offer embeddings, when the genai plugin serves them; else none. */
async function embeddingInstances() {
  if (!(await apiPaths()).has('/api/llm')) return [];
  const all = await api('GET', '/api/llm');
  return all.filter((instance) => instance.embeddingModel);
}

function embedderOptions(current) {
  const options = [
    h('option', { value: BUILTIN, text: 'Built-in (learned from the site)' }),
    ...instances.map((i) =>
      h('option', { value: i.id, text: `${i.title} (${i.embeddingModel})${i.enabled === false ? ', disabled' : ''}` }),
    ),
  ];
  if (current !== BUILTIN && !instances.some((i) => i.id === current))
    options.push(h('option', { value: current, text: `${current} (no such instance)` }));
  return options;
}

function fill(settings) {
  $('embedder').replaceChildren(...embedderOptions(settings.embedder));
  setFields(form, {
    enabled: settings.enabled,
    embedder: settings.embedder,
    fields: settings.fields.join(', '),
    passageChars: settings.passageChars,
    passageOverlap: settings.passageOverlap,
    rrfK: settings.rrfK,
    window: settings.window,
  });
  $('settings-state').textContent = settings.custom
    ? `The site's own settings, changed ${formatDate(settings.updatedAt)}.`
    : 'The default settings: the site has none of its own.';
}

function read() {
  const body = {
    enabled: checked(form, 'enabled'),
    embedder: text(form, 'embedder'),
    fields: list(text(form, 'fields')),
  };
  // An empty number keeps what the site has.
  for (const name of NUMBERS) {
    const value = numberOrNull(form, name);
    if (value !== null) body[name] = value;
  }
  return body;
}

const progress = {
  timer: null,
  runs: 0,
  // After a change the work may not have begun at the first read: a few more reads before the page stops asking.
  after: 0,
  /** Read the progress now, and again shortly while documents wait or a model is being learned. */
  async run() {
    clearTimeout(progress.timer);
    const run = ++progress.runs;
    let busyNow = false;
    try {
      const status = await api('GET', `${page.path}/semantic/status`);
      // A later read is under way: it shows its own answer and decides about the next.
      if (run !== progress.runs) return;
      busyNow = showProgress(status);
    } catch (error) {
      if (run !== progress.runs) return;
      showError(error);
    }
    const again = busyNow || progress.after-- > 0;
    if (again && !document.hidden) progress.timer = setTimeout(progress.run, PROGRESS_MS);
  },
  /** Read it now and keep reading for a while: something was just changed. */
  watch() {
    progress.after = 3;
    return progress.run();
  },
};

/** Fill the progress tables; true while work is under way. */
function showProgress(status) {
  document
    .querySelector('#locales tbody')
    .replaceChildren(
      ...status.locales.map((l) =>
        h(
          'tr',
          { 'data-locale': l.locale },
          cell('Locale', l.locale),
          cell('Ready', l.ready ? 'Yes' : l.training ? 'Learning the model' : 'No'),
          cell('Model', l.model ?? '—'),
          cell('Why not', l.reason ?? ''),
        ),
      ),
    );
  $('locales-status').textContent = status.locales.length ? '' : 'The site has no locales.';
  document
    .querySelector('#models tbody')
    .replaceChildren(
      ...status.models.map((m) =>
        h(
          'tr',
          { 'data-locale': m.locale, 'data-model': m.model, 'data-active': String(m.active) },
          cell('Locale', m.locale),
          cell('Model', m.model),
          cell('In use', yesNo(m.active)),
          numCell('Pending', m.pending),
          numCell('Embedding now', m.claimed),
          numCell('Done', m.done),
          numCell('Failed', m.failed),
          numCell('Passages', m.passages),
        ),
      ),
    );
  $('models-status').textContent = status.models.length ? '' : 'No document embedded yet.';
  document
    .querySelector('#failures tbody')
    .replaceChildren(
      ...status.failures.map((f) =>
        h(
          'tr',
          { 'data-document-id': f.id },
          cell('Document', h('code', { text: f.id })),
          cell('Locale', f.locale),
          cell('Reason', f.reason),
          cell('When', formatDate(f.updatedAt)),
        ),
      ),
    );
  $('failures-status').textContent = countText(status.failures.length, 'failure', 'No document failed.');
  const pending = status.models.reduce((sum, m) => sum + m.pending, 0);
  const training = status.locales.some((l) => l.training);
  $('progress-summary').textContent = !status.enabled
    ? 'Semantic search is off for this site: nothing is embedded.'
    : pending > 0
      ? `${pending} document${pending === 1 ? '' : 's'} waiting to be embedded…`
      : training
        ? 'Learning the built-in model…'
        : 'Every document is embedded.';
  document.body.dataset.pending = String(pending);
  return status.enabled && (pending > 0 || training);
}

/** The title a result shows: its title field as text, without the site's highlighting marks. */
function titleOf(doc) {
  const value = doc.fields?.[site.defaultTitleField] ?? doc.fields?.title;
  let title = Array.isArray(value) ? value.join(' ') : String(value ?? '');
  for (const mark of [site.hlPre, site.hlPost]) if (mark) title = title.split(mark).join('');
  return title || doc.fields?.id || '(no title)';
}

/** A result's address when it is one a link may lead to: http(s), or a path on this host. */
function linkOf(doc) {
  const value = doc.fields?.[site.defaultURLField] ?? doc.source;
  if (typeof value !== 'string') return null;
  if (/^https?:\/\//i.test(value)) return value;
  return /^\/(?![/\\])/.test(value) ? value : null;
}

function result(doc) {
  const id = String(doc.fields?.id ?? '');
  const href = linkOf(doc);
  const title = titleOf(doc);
  return h(
    'li',
    { 'data-id': id },
    href ? h('a', { href, rel: 'noopener noreferrer', target: '_blank', text: title }) : h('span', { text: title }),
    h('code', { text: id }),
  );
}

/** What ran, said beside the results: the mode, and why when it is not the one asked for. */
function modeLine(requested, answer) {
  const semantic = answer.queryContext?.semantic ?? { requested, mode: 'keyword' };
  const count = answer.queryContext?.count ?? 0;
  const found = `${count} result${count === 1 ? '' : 's'}`;
  if (semantic.mode !== requested)
    return { text: `Ran ${semantic.mode}: ${semantic.reason ?? ''} ${found}.`, fallback: true };
  const fused = semantic.mode === 'hybrid' ? ` (k ${semantic.rrfK}, ${semantic.window} per side)` : '';
  return { text: `Ran ${semantic.mode}${fused}: ${found}.`, fallback: false };
}

async function searchAs(mode, { q, locale, rows }) {
  const line = $(`${mode}-mode`);
  const results = $(`${mode}-results`);
  const column = line.closest('.compare-column');
  const query = new URLSearchParams({ q, semantic: mode, rows });
  if (locale) query.set('_setlocale', locale);
  try {
    const answer = await api('GET', `${page.path}/search?${query}`);
    const said = modeLine(mode, answer);
    line.textContent = said.text;
    line.classList.toggle('fallback', said.fallback);
    column.dataset.ran = answer.queryContext?.semantic?.mode ?? 'keyword';
    results.replaceChildren(...(answer.results?.document ?? []).map(result));
  } catch (error) {
    line.textContent = String(error?.message ?? error);
    line.classList.add('fallback');
    column.dataset.ran = '';
    results.replaceChildren();
  }
}

function wireCompare() {
  const compare = $('compare-form');
  compare.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = $('compare-q').value.trim();
    if (!q) return;
    busy($('compare'), async () => {
      delete document.body.dataset.compared;
      const query = { q, locale: $('compare-locale').value, rows: $('compare-rows').value };
      await Promise.all(MODES.map((mode) => searchAs(mode, query)));
      document.body.dataset.compared = q;
    });
  });
}

async function start() {
  try {
    site = await page.load();
  } catch (error) {
    showError(error);
    siteMissing(error);
    return;
  }
  $('compare-locale').replaceChildren(...site.locales.map((locale) => h('option', { value: locale, text: locale })));
  $('compare-locale').hidden = site.locales.length < 2;
  try {
    const [settings, found] = await Promise.all([api('GET', `${page.path}/semantic`), embeddingInstances()]);
    instances = found;
    fill(settings);
    document.body.dataset.loaded = 'true';
  } catch (error) {
    showError(error);
  }
  progress.run();
}

wireSubmit(form, $('save'), async () => {
  fill(await api('PUT', `${page.path}/semantic`, read()));
  showSaved('Semantic settings saved.');
  progress.watch();
});

$('reset').addEventListener('click', async () => {
  const reset = await confirmAction({
    title: 'Back to the default settings?',
    text: "The site's own semantic settings are dropped; documents are embedded again when the defaults differ.",
    confirmLabel: 'Use the defaults',
  });
  if (!reset) return;
  await busy($('reset'), async () => {
    fill(await api('DELETE', `${page.path}/semantic`));
    showSaved('Back to the default settings.');
    progress.watch();
  });
});

$('embed-again').addEventListener('click', () =>
  busy($('embed-again'), async () => {
    showProgress(await api('POST', `${page.path}/semantic/refresh`));
    showSaved('Every document is looked at again: what changed or failed is embedded again.');
    progress.watch();
  }),
);
$('reload-progress').addEventListener('click', () => progress.run());
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && site) progress.run();
});

wireCompare();
start();
