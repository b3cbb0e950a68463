import { $, ApiError, api, h, showError } from './console.js';
import { dialogForm, list, setFields, text } from './console-forms.js';
import { actionsCell, cell, confirmDelete, countText, numCell } from './console-tables.js';
import { siteMissing, sitePage } from './search-console.js';

// Spotlights: /api/sn/<site>/spotlight (list, create, update, delete; /structure, an empty one). The page
// reads the members as the spec names them (locale, terms, documents) and as the original did (language,
// turSNSiteSpotlightTerms, turSNSiteSpotlightDocuments), and writes the names the service's structure
// uses.
const page = sitePage();
const base = `${page.path}/spotlight`;
const dialog = $('spotlight-dialog');
const form = $('spotlight-form');
let site = null;
let spotlights = [];
let editing = null;
let names = { locale: 'locale', terms: 'terms', documents: 'documents' };

const localeOf = (s) => s.locale ?? s.language ?? '';
const termsOf = (s) =>
  (s.terms ?? s.turSNSiteSpotlightTerms ?? [])
    .map((t) => (typeof t === 'string' ? t : (t?.name ?? '')))
    .filter(Boolean);
const documentsOf = (s) =>
  (s.documents ?? s.turSNSiteSpotlightDocuments ?? []).slice().sort((a, b) => (a.position ?? 0) - (b.position ?? 0));

/** Member names from the service's empty spotlight, when it has one. */
async function learnNames() {
  const structure = await api('GET', `${base}/structure`).catch(() => null);
  if (!structure || typeof structure !== 'object') return;
  names = {
    locale: 'language' in structure && !('locale' in structure) ? 'language' : 'locale',
    terms: 'turSNSiteSpotlightTerms' in structure && !('terms' in structure) ? 'turSNSiteSpotlightTerms' : 'terms',
    documents:
      'turSNSiteSpotlightDocuments' in structure && !('documents' in structure)
        ? 'turSNSiteSpotlightDocuments'
        : 'documents',
  };
}

function render() {
  const rows = spotlights.map((s) =>
    h(
      'tr',
      { 'data-spotlight-id': s.id },
      cell('Name', s.name ?? ''),
      cell('Locale', localeOf(s)),
      cell('Terms', termsOf(s).join(', ')),
      numCell('Documents', documentsOf(s).length),
      actionsCell(s.name, { edit: () => edit(s), remove: () => remove(s) }),
    ),
  );
  document.querySelector('#spotlights tbody').replaceChildren(...rows);
  $('spotlights-status').textContent = countText(spotlights.length, 'spotlight', 'No spotlights yet.');
}

// The last member is the API's bound (spotlight-schemas.ts): the largest position, else the longest text.
const DOCUMENT_FIELDS = [
  ['position', 'Position', 'number', 100000],
  ['title', 'Title', 'text', 500],
  ['type', 'Type', 'text', 100],
  ['referenceId', 'Document id', 'text', 400],
  ['link', 'Link', 'url', 2000],
];

function documentRow(doc = {}) {
  const row = h('div', { class: 'document-row' });
  const inputs = DOCUMENT_FIELDS.map(([key, label, type, bound]) => {
    const limits = type === 'number' ? { min: 1, max: bound } : { maxlength: bound };
    return h(
      'label',
      {},
      label,
      h('input', { type, name: `doc-${key}`, value: doc[key] ?? '', ...limits, autocomplete: 'off' }),
    );
  });
  const content = h(
    'label',
    { class: 'span' },
    'Content',
    h('textarea', { name: 'doc-content', rows: 2, maxlength: 2000 }),
  );
  content.querySelector('textarea').value = doc.content ?? '';
  row.append(
    ...inputs,
    content,
    h('button', { type: 'button', class: 'button subtle', text: 'Remove document', onclick: () => row.remove() }),
  );
  return row;
}

function readDocuments() {
  return [...document.querySelectorAll('#spotlight-documents .document-row')].map((row, i) => {
    const value = (key) => row.querySelector(`[name="doc-${key}"]`).value.trim();
    const doc = {
      position: Number(value('position')) || i + 1,
      title: value('title'),
      type: value('type') || 'Page',
      content: value('content'),
    };
    doc.referenceId = value('referenceId') || null;
    doc.link = value('link') || null;
    return doc;
  });
}

function read() {
  const terms = list(text(form, 'terms'));
  return {
    name: text(form, 'name'),
    description: text(form, 'description'),
    [names.locale]: text(form, 'locale'),
    [names.terms]: names.terms === 'terms' ? terms : terms.map((name) => ({ name })),
    [names.documents]: readDocuments(),
  };
}

const spotlightDialog = dialogForm({
  dialog,
  form,
  error: 'spotlight-error',
  cancel: 'spotlight-cancel',
  button: 'spotlight-save',
  async submit() {
    try {
      if (editing) await api('PUT', `${base}/${encodeURIComponent(editing.id)}`, read());
      else await api('POST', base, read());
    } catch (error) {
      // Deleted meanwhile (another tab, an import): the dialog says so, and the list behind it stops showing it.
      if (editing && error instanceof ApiError && error.status === 404) await reload().catch(() => {});
      throw error;
    }
    await reload();
  },
});

function edit(spotlight) {
  editing = spotlight;
  $('spotlight-dialog-title').textContent = spotlight ? `Spotlight ${spotlight.name}` : 'New spotlight';
  $('spotlight-locale').replaceChildren(...site.locales.map((locale) => h('option', { value: locale, text: locale })));
  setFields(form, {
    name: spotlight?.name ?? '',
    description: spotlight?.description ?? '',
    locale: spotlight ? localeOf(spotlight) : site.locales[0],
    terms: spotlight ? termsOf(spotlight).join(', ') : '',
  });
  const docs = spotlight ? documentsOf(spotlight) : [];
  $('spotlight-documents').replaceChildren(...(docs.length ? docs : [{ position: 1 }]).map(documentRow));
  spotlightDialog.open();
  form.elements.namedItem('name').focus();
}

async function reload() {
  spotlights = await api('GET', base);
  render();
}

async function remove(spotlight) {
  const path = `${base}/${encodeURIComponent(spotlight.id)}`;
  await confirmDelete({
    title: `Delete spotlight ${spotlight.name}?`,
    text: 'Its documents stop showing for its terms.',
    path,
    deleted: reload,
  });
}

$('add-spotlight').addEventListener('click', () => edit(null));
$('add-document').addEventListener('click', () => {
  const next = document.querySelectorAll('#spotlight-documents .document-row').length + 1;
  $('spotlight-documents').append(documentRow({ position: next }));
});

async function start() {
  try {
    site = await page.load();
  } catch (error) {
    showError(error);
    siteMissing(error);
    return;
  }
  try {
    spotlights = await api('GET', base);
    await learnNames();
    render();
    document.body.dataset.loaded = 'true';
  } catch (error) {
    $('spotlights-status').textContent = '';
    showError(error);
  }
}

start();
