import { $, api, h, showError, showSaved, wireDelete, wireSubmit } from './console.js';
import { checked, numberOrNull, setFields, text } from './console-forms.js';
import { siteMissing, sitePage } from './search-console.js';

const page = sitePage();
const form = $('site-form');
const SWITCHES = [
  'facet',
  'hl',
  'mlt',
  'spellCheck',
  'spellCheckFixes',
  'spotlightWithResults',
  'wildcardNoResults',
  'wildcardAlways',
];
const DEFAULT_FIELDS = [
  'defaultTitleField',
  'defaultTextField',
  'defaultDescriptionField',
  'defaultDateField',
  'defaultImageField',
  'defaultURLField',
];
let siteName = '';

function fill(site, fields) {
  siteName = site.name;
  $('site-name').textContent = site.name;
  setFields(form, {
    name: site.name,
    description: site.description,
    rowsPerPage: site.rowsPerPage,
    itemsPerFacet: site.itemsPerFacet,
    bm25K1: site.bm25K1,
    bm25B: site.bm25B,
    facetType: site.facetType,
    facetItemType: site.facetItemType,
    facetSort: site.facetSort,
    metadataFormat: site.metadataFormat,
    hlPre: site.hlPre,
    hlPost: site.hlPost,
  });
  for (const name of SWITCHES) form.elements.namedItem(name).checked = !!site[name];
  // Each default field is one of the site's fields, or none.
  const names = fields.map((f) => f.name).sort();
  for (const name of DEFAULT_FIELDS) {
    const select = form.elements.namedItem(name);
    const current = site[name];
    const options = [
      h('option', { value: '', text: '(none)' }),
      ...names.map((n) => h('option', { value: n, text: n })),
    ];
    if (current && !names.includes(current))
      options.push(h('option', { value: current, text: `${current} (no such field)` }));
    select.replaceChildren(...options);
    select.value = current ?? '';
  }
}

function read() {
  const body = {
    name: text(form, 'name'),
    description: text(form, 'description'),
    facetType: text(form, 'facetType'),
    facetItemType: text(form, 'facetItemType'),
    facetSort: text(form, 'facetSort'),
    metadataFormat: text(form, 'metadataFormat'),
    hlPre: form.elements.namedItem('hlPre').value,
    hlPost: form.elements.namedItem('hlPost').value,
  };
  for (const name of ['rowsPerPage', 'itemsPerFacet', 'bm25K1', 'bm25B']) {
    const value = numberOrNull(form, name);
    if (value !== null) body[name] = value;
  }
  for (const name of SWITCHES) body[name] = checked(form, name);
  for (const name of DEFAULT_FIELDS) body[name] = text(form, name) || null;
  return body;
}

async function start() {
  try {
    const [site, fields] = await Promise.all([page.load(), api('GET', `${page.path}/field`)]);
    fill(site, fields);
    document.body.dataset.loaded = 'true';
  } catch (error) {
    showError(error);
    siteMissing(error);
  }
}

wireSubmit(form, $('save'), async () => {
  const site = await api('PUT', page.path, read());
  fill(site, await api('GET', `${page.path}/field`));
  showSaved('Site saved.');
});

wireDelete($('delete'), {
  title: 'Delete this site?',
  text: () => `The site “${siteName}”, its fields, documents and indexes are deleted, and its search answers 404.`,
  path: page.path,
  next: '/console/sites',
});

start();
