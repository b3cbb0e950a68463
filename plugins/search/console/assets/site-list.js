import { $, api, formatDate, h, showError } from './console.js';
import { cell, numCell } from './console-tables.js';

const SWITCHES = [
  ['facet', 'Facet'],
  ['hl', 'Highlight'],
  ['mlt', 'MLT'],
  ['spellCheck', 'Spell Check'],
  ['spotlightWithResults', 'Spotlights'],
];

async function load() {
  try {
    const sites = await api('GET', '/api/sn');
    // Document counts come from each site's monitoring; a site that fails to answer shows a dash.
    const counts = await Promise.all(
      sites.map((site) => api('GET', `/api/sn/${encodeURIComponent(site.id)}/monitoring`).catch(() => null)),
    );
    const rows = sites.map((site, i) =>
      h(
        'tr',
        { 'data-site-id': site.id },
        cell('Name', h('a', { href: `/console/sites/${encodeURIComponent(site.id)}`, text: site.name })),
        cell('Locales', site.locales.join(', ')),
        numCell('Documents', counts[i]?.documents),
        cell(
          'Switches',
          h(
            'span',
            { class: 'badges' },
            ...SWITCHES.filter(([key]) => site[key]).map(([, label]) => h('span', { class: 'badge on', text: label })),
          ),
        ),
        cell('Updated', formatDate(site.updatedAt)),
      ),
    );
    document.querySelector('#sites tbody').replaceChildren(...rows);
    $('sites-status').textContent = sites.length
      ? `${sites.length} site${sites.length === 1 ? '' : 's'}`
      : 'No sites yet. Create one with “New site”.';
  } catch (error) {
    $('sites-status').textContent = '';
    showError(error);
  }
}

load();
