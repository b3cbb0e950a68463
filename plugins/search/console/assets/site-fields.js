import { $, api, confirmAction, h, showError } from './console.js';
import { checked, dialogForm, numberOrNull, setFields, text } from './console-forms.js';
import { cell, numCell } from './console-tables.js';
import { siteMissing, sitePage } from './search-console.js';

const page = sitePage();
const dialog = $('field-dialog');
const form = $('field-form');
let editing = null;
let fields = [];

const INLINE = [
  ['facet', 'Facet'],
  ['secondaryFacet', 'Secondary'],
  ['enabled', 'Enabled'],
  ['hl', 'Highlight'],
];

/** A checkbox in the table that saves its member of the field at once. */
function toggle(field, key, label) {
  const input = h('input', {
    type: 'checkbox',
    checked: !!field[key],
    disabled: key === 'secondaryFacet' && !field.facet,
    'aria-label': `${label}: ${field.name}`,
    'data-member': key,
  });
  input.addEventListener('change', async () => {
    input.disabled = true;
    try {
      const saved = await api('PUT', `${page.path}/field/${encodeURIComponent(field.id)}`, { [key]: input.checked });
      fields = fields.map((f) => (f.id === saved.id ? saved : f));
      render();
    } catch (error) {
      input.checked = !input.checked;
      input.disabled = false;
      showError(error);
    }
  });
  return input;
}

function render() {
  const rows = fields
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((field) =>
      h(
        'tr',
        { 'data-field': field.name },
        cell(
          'Name',
          h('code', { text: field.name }),
          field.multiValued ? h('span', { class: 'muted small', text: ' multi' }) : null,
        ),
        cell('Type', field.type),
        ...INLINE.slice(0, 2).map(([key, label]) => cell(label, toggle(field, key, label))),
        cell('Facet name', field.facetName ?? ''),
        numCell('Position', field.facetPosition),
        ...INLINE.slice(2).map(([key, label]) => cell(label, toggle(field, key, label))),
        cell(
          '',
          h('button', {
            type: 'button',
            class: 'button subtle',
            text: 'Edit',
            'aria-label': `Edit ${field.name}`,
            onclick: () => edit(field),
          }),
        ),
      ),
    );
  document.querySelector('#fields tbody').replaceChildren(...rows);
  const facets = fields.filter((f) => f.facet).length;
  $('fields-status').textContent = fields.length
    ? `${fields.length} field${fields.length === 1 ? '' : 's'}, ${facets} facet${facets === 1 ? '' : 's'}`
    : 'No fields yet.';
}

const labelsText = (labels) =>
  Object.entries(labels ?? {})
    .map(([locale, label]) => `${locale} = ${label}`)
    .join('\n');

function labelsOf(value) {
  const labels = {};
  for (const line of value.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) labels[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return labels;
}

function read() {
  const body = {
    name: text(form, 'name'),
    type: text(form, 'type'),
    description: text(form, 'description'),
    facetName: text(form, 'facetName') || null,
    facetPosition: numberOrNull(form, 'facetPosition'),
    facetType: text(form, 'facetType'),
    facetItemType: text(form, 'facetItemType'),
    facetSort: text(form, 'facetSort'),
    facetLabels: labelsOf(form.elements.namedItem('facetLabels').value),
    defaultValue: text(form, 'defaultValue') || null,
  };
  for (const key of ['enabled', 'multiValued', 'required', 'hl', 'mlt', 'facet', 'secondaryFacet', 'showAllFacetItems'])
    body[key] = checked(form, key);
  const boost = numberOrNull(form, 'boost');
  if (boost !== null) body.boost = boost;
  return body;
}

const fieldDialog = dialogForm({
  dialog,
  form,
  error: 'field-error',
  cancel: 'field-cancel',
  button: 'field-save',
  async submit() {
    const saved = editing
      ? await api('PUT', `${page.path}/field/${encodeURIComponent(editing.id)}`, read())
      : await api('POST', `${page.path}/field`, read());
    fields = [...fields.filter((f) => f.id !== saved.id), saved];
    render();
  },
});

function edit(field) {
  editing = field;
  $('field-dialog-title').textContent = field ? `Field ${field.name}` : 'New field';
  $('field-delete').hidden = !field;
  const values = field ?? {
    type: 'STRING',
    enabled: true,
    facetType: 'DEFAULT',
    facetItemType: 'DEFAULT',
    facetSort: 'DEFAULT',
    boost: 1,
  };
  setFields(form, { ...values, facetLabels: labelsText(values.facetLabels) });
  fieldDialog.open();
  form.elements.namedItem('name').focus();
}

$('add-field').addEventListener('click', () => edit(null));
$('field-delete').addEventListener('click', async () => {
  const field = editing;
  dialog.close();
  if (
    !(await confirmAction({
      title: `Delete field ${field.name}?`,
      text: 'Documents keep the attribute, but searches no longer use or return it.',
      confirmLabel: 'Delete',
    }))
  )
    return;
  try {
    await api('DELETE', `${page.path}/field/${encodeURIComponent(field.id)}`);
    fields = fields.filter((f) => f.id !== field.id);
    render();
  } catch (error) {
    showError(error);
  }
});

async function start() {
  try {
    await page.load();
    fields = await api('GET', `${page.path}/field`);
    render();
  } catch (error) {
    $('fields-status').textContent = '';
    showError(error);
    siteMissing(error);
  }
}

start();
