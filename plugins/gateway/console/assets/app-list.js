import { formatDate, h, loadList } from './console.js';

loadList({
  path: '/api/v2/app',
  table: 'apps',
  status: 'apps-status',
  sortBy: (app) => app.name,
  noun: 'app',
  empty: 'No apps yet. Create one with “New app”.',
  row: (app) =>
    h(
      'tr',
      { 'data-app-id': app.id },
      h('td', { 'data-label': 'Name' }, h('a', { href: `/console/app/${encodeURIComponent(app.id)}`, text: app.name })),
      h('td', { 'data-label': 'Description' }, app.description ?? ''),
      h('td', { 'data-label': 'Consumer Key' }, app.apiKey ? h('code', { text: app.apiKey }) : '—'),
      h('td', { 'data-label': 'Created' }, formatDate(app.createdAt)),
    ),
});
