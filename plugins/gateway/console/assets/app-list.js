import { formatDate, h, loadList } from './console.js';
import { cell } from './console-tables.js';

loadList({
  path: '/api/v2/app',
  table: 'apps',
  sortBy: (app) => app.name,
  noun: 'app',
  empty: 'No apps yet. Create one with “New app”.',
  cells: (app) => [
    cell('Name', h('a', { href: `/console/app/${encodeURIComponent(app.id)}`, text: app.name })),
    cell('Description', app.description ?? ''),
    cell('Consumer Key', app.apiKey ? h('code', { text: app.apiKey }) : '—'),
    cell('Created', formatDate(app.createdAt)),
  ],
});
