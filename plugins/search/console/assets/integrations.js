import { $, api, h, showError, showSaved } from './console.js';
import {
  actionsCell,
  cell,
  checked,
  confirmDelete,
  countText,
  dialogForm,
  setFields,
  text,
  yesNo,
} from './search-console.js';

const dialog = $('integration-dialog');
const form = $('integration-form');
let items = [];
let editing = null;

function render() {
  const rows = items.map((item) =>
    h(
      'tr',
      { 'data-integration-id': item.id },
      cell('Title', item.title),
      cell('Vendor', item.vendor),
      cell('Endpoint', h('code', { text: item.endpoint })),
      cell('Enabled', yesNo(item.enabled)),
      actionsCell(item.title, { edit: () => edit(item), remove: () => remove(item) }),
    ),
  );
  document.querySelector('#integrations tbody').replaceChildren(...rows);
  $('integrations-status').textContent = countText(items.length, 'integration', 'No integrations yet.');
}

const integrationDialog = dialogForm({
  dialog,
  form,
  error: 'integration-error',
  cancel: 'integration-cancel',
  button: 'integration-save',
  async submit() {
    const body = {
      title: text(form, 'title'),
      vendor: text(form, 'vendor'),
      endpoint: text(form, 'endpoint'),
      description: text(form, 'description'),
      enabled: checked(form, 'enabled'),
    };
    if (editing) await api('PUT', `/api/integration/${encodeURIComponent(editing.id)}`, body);
    else await api('POST', '/api/integration', body);
    showSaved('Integration saved.');
    await load();
  },
});

function edit(item) {
  editing = item;
  $('integration-dialog-title').textContent = item ? `Integration ${item.title}` : 'New integration';
  setFields(
    form,
    item ?? {
      title: '',
      vendor: form.elements.namedItem('vendor').options[0]?.value ?? '',
      endpoint: '',
      description: '',
      enabled: true,
    },
  );
  integrationDialog.open();
  form.elements.namedItem('title').focus();
}

async function remove(item) {
  const path = `/api/integration/${encodeURIComponent(item.id)}`;
  if (
    await confirmDelete({
      title: `Delete integration ${item.title}?`,
      text: 'Its proxy path answers 404 from now on.',
      path,
    })
  )
    await load();
}

async function load() {
  try {
    items = await api('GET', '/api/integration');
    render();
  } catch (error) {
    $('integrations-status').textContent = '';
    showError(error);
  }
}

async function start() {
  try {
    const vendors = await api('GET', '/api/integration/vendor');
    form.elements
      .namedItem('vendor')
      .replaceChildren(...vendors.map((v) => h('option', { value: v.id, text: v.title ?? v.id })));
  } catch (error) {
    showError(error);
  }
  $('add-integration').addEventListener('click', () => edit(null));
  await load();
}

start();
