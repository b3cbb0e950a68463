import { h, loadList } from './console.js';
import { cell, numCell } from './console-tables.js';

const calledAs = (context) => String(context ?? '').replace(/^\/proxy(?=\/)/, '');
const editLink = (mapping) => `/console/mapping/${encodeURIComponent(mapping.id)}`;

loadList({
  path: '/api/v2/mapping',
  table: 'mappings',
  sortBy: (mapping) => mapping.context,
  noun: 'mapping',
  empty: 'No mappings yet. Register an upstream with “New mapping”.',
  cells: (mapping) => [
    cell('Name', h('a', { href: editLink(mapping), text: mapping.name ?? calledAs(mapping.context).split('/')[1] })),
    cell('Context', h('code', { text: mapping.context })),
    cell('Called as', h('code', { text: calledAs(mapping.context) })),
    h('td', { 'data-label': 'Proxy to', class: 'url' }, mapping.url),
    numCell('Timeout', mapping.timeoutMs ? `${mapping.timeoutMs} ms` : null),
    cell(
      '',
      h('a', {
        class: 'button subtle',
        href: editLink(mapping),
        'aria-label': `Edit ${mapping.context}`,
        text: 'Edit',
      }),
    ),
  ],
});
