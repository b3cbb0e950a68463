import { $, api, formatDate, h, showError, showSaved, wireCopyButtons } from './console.js';
import { dialogForm, setFields, text } from './console-forms.js';
import { actionsCell, cell, confirmDelete, countText } from './console-tables.js';

const dialog = $('token-dialog');
const form = $('token-form');
let tokens = [];
let editing = null;

function render() {
  const rows = tokens.map((token) =>
    h(
      'tr',
      { 'data-token-id': token.id },
      cell(
        'Title',
        token.title,
        token.description ? h('div', { class: 'muted small', text: token.description }) : null,
      ),
      cell(
        'Scopes',
        h(
          'span',
          { class: 'badges' },
          ...token.scopes.map((scope) => h('span', { class: `badge scope-${scope}`, text: scope })),
        ),
      ),
      cell('Starts with', h('code', { text: token.tokenHint })),
      cell('Created', `${formatDate(token.createdAt)} by ${token.createdBy}`),
      cell('Last used', formatDate(token.lastUsedAt)),
      actionsCell(token.title, { edit: () => edit(token), remove: () => remove(token) }),
    ),
  );
  document.querySelector('#tokens tbody').replaceChildren(...rows);
  $('tokens-status').textContent = countText(tokens.length, 'token', 'No tokens yet. Create one with “New token”.');
}

const scopesOf = () => [...form.querySelectorAll('input[name="scopes"]:checked')].map((input) => input.value);

const tokenDialog = dialogForm({
  dialog,
  form,
  error: 'token-error',
  cancel: 'token-cancel',
  button: 'token-save',
  async submit() {
    const body = { title: text(form, 'title'), description: text(form, 'description'), scopes: scopesOf() };
    if (editing) {
      await api('PUT', `/api/dev/token/${encodeURIComponent(editing.id)}`, body);
      showSaved('Token saved.');
    } else {
      const created = await api('POST', '/api/dev/token', body);
      $('token-value').textContent = created.token;
      $('new-token').hidden = false;
      $('error').hidden = true;
      $('saved').hidden = true;
    }
    await load();
  },
});

function edit(token) {
  editing = token;
  $('token-dialog-title').textContent = token ? `Token ${token.title}` : 'New token';
  setFields(form, { title: token?.title ?? '', description: token?.description ?? '' });
  const scopes = token?.scopes ?? ['search'];
  for (const input of form.querySelectorAll('input[name="scopes"]')) input.checked = scopes.includes(input.value);
  tokenDialog.open();
  form.elements.namedItem('title').focus();
}

async function remove(token) {
  const path = `/api/dev/token/${encodeURIComponent(token.id)}`;
  await confirmDelete({
    title: `Delete token ${token.title}?`,
    text: 'Clients that send it are refused at once.',
    path,
    async deleted() {
      showSaved('Token deleted.');
      await load();
    },
  });
}

async function load() {
  try {
    tokens = await api('GET', '/api/dev/token');
    render();
  } catch (error) {
    $('tokens-status').textContent = '';
    showError(error);
  }
}

$('add-token').addEventListener('click', () => edit(null));
wireCopyButtons();
load();
