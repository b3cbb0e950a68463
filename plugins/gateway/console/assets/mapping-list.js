import { $, api, h, showError } from './console.js';

const calledAs = (context) => String(context ?? '').replace(/^\/proxy(?=\/)/, '');

async function load() {
  const status = $('mappings-status');
  try {
    const mappings = await api('GET', '/api/v2/mapping');
    const rows = mappings
      .slice()
      .sort((a, b) => String(a.context).localeCompare(String(b.context)))
      .map((mapping) => h('tr', { 'data-mapping-id': mapping.id },
        h('td', {}, h('a', { href: `/console/mapping/${encodeURIComponent(mapping.id)}`, text: mapping.name ?? calledAs(mapping.context).split('/')[1] })),
        h('td', {}, h('code', { text: mapping.context })),
        h('td', {}, h('code', { text: calledAs(mapping.context) })),
        h('td', { class: 'url' }, mapping.url),
        h('td', { class: 'num' }, mapping.timeoutMs ? `${mapping.timeoutMs} ms` : '—'),
        h('td', {}, h('a', { class: 'button subtle', href: `/console/mapping/${encodeURIComponent(mapping.id)}`, 'aria-label': `Edit ${mapping.context}`, text: 'Edit' }))));
    document.querySelector('#mappings tbody').replaceChildren(...rows);
    status.textContent = mappings.length ? `${mappings.length} mapping${mappings.length === 1 ? '' : 's'}` : 'No mappings yet. Register an upstream with “New mapping”.';
  } catch (error) {
    status.textContent = '';
    showError(error);
  }
}

load();
