import { h, loadList } from './console.js';

const calledAs = (context) => String(context ?? '').replace(/^\/proxy(?=\/)/, '');
const editLink = (mapping) => `/console/mapping/${encodeURIComponent(mapping.id)}`;

loadList({
  path: '/api/v2/mapping',
  table: 'mappings',
  status: 'mappings-status',
  sortBy: (mapping) => mapping.context,
  noun: 'mapping',
  empty: 'No mappings yet. Register an upstream with “New mapping”.',
  row: (mapping) =>
    h(
      'tr',
      { 'data-mapping-id': mapping.id },
      h(
        'td',
        { 'data-label': 'Name' },
        h('a', { href: editLink(mapping), text: mapping.name ?? calledAs(mapping.context).split('/')[1] }),
      ),
      h('td', { 'data-label': 'Context' }, h('code', { text: mapping.context })),
      h('td', { 'data-label': 'Called as' }, h('code', { text: calledAs(mapping.context) })),
      h('td', { 'data-label': 'Proxy to', class: 'url' }, mapping.url),
      h('td', { 'data-label': 'Timeout', class: 'num' }, mapping.timeoutMs ? `${mapping.timeoutMs} ms` : '—'),
      h(
        'td',
        { 'data-label': '' },
        h('a', {
          class: 'button subtle',
          href: editLink(mapping),
          'aria-label': `Edit ${mapping.context}`,
          text: 'Edit',
        }),
      ),
    ),
});
