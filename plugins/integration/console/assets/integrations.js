import { h } from './console.js';
import { checked, text } from './console-forms.js';
import { cell } from './console-tables.js';
import { vendorInstancesPage } from './vendor-instances.js';

vendorInstancesPage({
  name: 'integration',
  table: 'integrations',
  path: '/api/integration',
  noun: 'integration',
  empty: 'No integrations yet.',
  cells: (item) => [cell('Endpoint', h('code', { text: item.endpoint }))],
  dialogTitle: (item) => (item ? `Integration ${item.title}` : 'New integration'),
  defaults: { title: '', endpoint: '', description: '', enabled: true },
  body: (form) => ({
    title: text(form, 'title'),
    vendor: text(form, 'vendor'),
    endpoint: text(form, 'endpoint'),
    description: text(form, 'description'),
    enabled: checked(form, 'enabled'),
  }),
  saved: 'Integration saved.',
  deleteTitle: (item) => `Delete integration ${item.title}?`,
  deleteText: 'Its proxy path answers 404 from now on.',
});
