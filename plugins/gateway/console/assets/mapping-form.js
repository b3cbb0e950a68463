import { $, api, showLoadError, showSaved, wireDelete, wireSubmit } from './console.js';

const form = $('mapping-form');
const id = form.dataset.mappingId;
const PREFIX = '/proxy/';

// The context field shows what follows /proxy/; the API takes the whole context.
const toField = (context) => String(context ?? '').replace(/^\/proxy\//, '');
const toContext = (value) => PREFIX + value.trim().replace(/^\/?(proxy\/)?/, '');

function read() {
  const value = (name) => form.elements.namedItem(name).value.trim();
  const body = { context: toContext(value('context')), url: value('url'), description: value('description') };
  if (value('timeoutMs')) body.timeoutMs = Number(value('timeoutMs'));
  body.healthCheckPath = value('healthCheckPath') || null;
  return body;
}

function fill(mapping) {
  const set = (name, value) => {
    form.elements.namedItem(name).value = value ?? '';
  };
  set('context', toField(mapping.context));
  set('url', mapping.url);
  set('description', mapping.description);
  set('timeoutMs', mapping.timeoutMs);
  set('healthCheckPath', mapping.healthCheckPath);
  $('form-title').textContent = `Mapping ${mapping.context}`;
}

async function start() {
  if (!id) {
    $('form-title').textContent = 'New mapping';
    form.elements.namedItem('context').focus();
    return;
  }
  $('delete').hidden = false;
  try {
    fill(await api('GET', `/api/v2/mapping/${encodeURIComponent(id)}`));
  } catch (error) {
    showLoadError(error, form);
  }
}

wireSubmit(form, $('save'), async () => {
  if (id) {
    fill(await api('PUT', `/api/v2/mapping/${encodeURIComponent(id)}`, read()));
    showSaved('Mapping saved.');
  } else {
    await api('POST', '/api/v2/mapping', read());
    location.assign('/console/mapping');
  }
});

wireDelete($('delete'), {
  title: 'Delete this mapping?',
  text: () =>
    `Requests to ${toContext(form.elements.namedItem('context').value).replace(/^\/proxy/, '')} will answer 404 from now on.`,
  path: `/api/v2/mapping/${encodeURIComponent(id)}`,
  next: '/console/mapping',
});

start();
