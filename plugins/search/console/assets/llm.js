import { $, api, apiPaths, h, showError, showSaved } from './console.js';
import {
  actionsCell,
  cell,
  checked,
  confirmDelete,
  countText,
  dialogForm,
  numCell,
  setFields,
  text,
  yesNo,
} from './search-console.js';

const dialog = $('llm-dialog');
const form = $('llm-form');
let items = [];
let editing = null;

function render() {
  const rows = items.map((item) =>
    h(
      'tr',
      { 'data-llm-id': item.id },
      cell('Title', item.title),
      cell('Vendor', item.vendor),
      cell('Model', item.modelName ?? '—'),
      cell('API key', item.hasApiKey ? `…${item.apiKeyHint ?? ''}` : '—'),
      cell('Enabled', yesNo(item.enabled)),
      actionsCell(item.title, { edit: () => edit(item), remove: () => remove(item) }),
    ),
  );
  document.querySelector('#llms tbody').replaceChildren(...rows);
  $('llms-status').textContent = countText(items.length, 'instance', 'No LLM instances yet.');
}

const llmDialog = dialogForm({
  dialog,
  form,
  error: 'llm-error',
  cancel: 'llm-cancel',
  button: 'llm-save',
  async submit() {
    const body = {
      title: text(form, 'title'),
      vendor: text(form, 'vendor'),
      url: text(form, 'url') || null,
      modelName: text(form, 'modelName') || null,
      description: text(form, 'description'),
      enabled: checked(form, 'enabled'),
    };
    // The key is write-only: sent only when typed, so an edit keeps the stored one.
    if (form.elements.namedItem('apiKey').value) body.apiKey = form.elements.namedItem('apiKey').value;
    if (editing) await api('PUT', `/api/llm/${encodeURIComponent(editing.id)}`, body);
    else await api('POST', '/api/llm', body);
    showSaved('LLM instance saved.');
    await load();
  },
});

function edit(item) {
  editing = item;
  $('llm-dialog-title').textContent = item ? `LLM instance ${item.title}` : 'New LLM instance';
  const vendor = form.elements.namedItem('vendor').options[0]?.value ?? '';
  setFields(form, {
    title: '',
    url: '',
    modelName: '',
    description: '',
    enabled: true,
    vendor,
    ...(item ?? {}),
    apiKey: '',
  });
  llmDialog.open();
  form.elements.namedItem('title').focus();
}

async function remove(item) {
  const path = `/api/llm/${encodeURIComponent(item.id)}`;
  if (
    await confirmDelete({
      title: `Delete ${item.title}?`,
      text: 'Sites and agents that use it can no longer chat.',
      path,
    })
  )
    await load();
}

async function load() {
  try {
    items = await api('GET', '/api/llm');
    render();
  } catch (error) {
    $('llms-status').textContent = '';
    showError(error);
  }
}

/** Token usage of a month, by instance and model, when the service reports it. */
async function usage() {
  const month = $('month').value;
  try {
    const report = await api('GET', `/api/v2/llm/token-usage${month ? `?month=${encodeURIComponent(month)}` : ''}`);
    const rows = (report.summary ?? []).map((line) =>
      h(
        'tr',
        {},
        cell('Instance', line.instanceTitle ?? line.instanceId ?? ''),
        cell('Model', line.modelName ?? ''),
        numCell('Requests', line.requestCount),
        numCell('Input', line.inputTokens),
        numCell('Output', line.outputTokens),
        numCell('Total', line.totalTokens),
      ),
    );
    document.querySelector('#usage tbody').replaceChildren(...rows);
    $('usage-status').textContent = rows.length
      ? `${report.totalTokens ?? 0} tokens in ${report.totalRequests ?? 0} requests`
      : 'No tokens used in this month.';
  } catch (error) {
    showError(error);
  }
}

async function start() {
  try {
    const vendors = await api('GET', '/api/llm/vendor');
    form.elements
      .namedItem('vendor')
      .replaceChildren(...vendors.map((v) => h('option', { value: v.id, text: v.title ?? v.id })));
  } catch (error) {
    showError(error);
  }
  $('add-llm').addEventListener('click', () => edit(null));
  await load();
  if ((await apiPaths()).has('/api/v2/llm/token-usage')) {
    $('month').value = new Date().toISOString().slice(0, 7);
    $('usage-card').hidden = false;
    $('month').addEventListener('change', usage);
    await usage();
  }
}

start();
