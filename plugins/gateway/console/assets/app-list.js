import { $, api, formatDate, h, showError } from './console.js';

async function load() {
  const status = $('apps-status');
  try {
    const apps = await api('GET', '/api/v2/app');
    const rows = apps
      .slice()
      .sort((a, b) => String(a.name).localeCompare(String(b.name)))
      .map((app) => h('tr', { 'data-app-id': app.id },
        h('td', {}, h('a', { href: `/console/app/${encodeURIComponent(app.id)}`, text: app.name })),
        h('td', {}, app.description ?? ''),
        h('td', {}, app.apiKey ? h('code', { text: app.apiKey }) : '—'),
        h('td', {}, formatDate(app.createdAt))));
    document.querySelector('#apps tbody').replaceChildren(...rows);
    status.textContent = apps.length ? `${apps.length} app${apps.length === 1 ? '' : 's'}` : 'No apps yet. Create one with “New app”.';
  } catch (error) {
    status.textContent = '';
    showError(error);
  }
}

load();
