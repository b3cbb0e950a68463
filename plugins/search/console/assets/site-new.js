import { $, api, busy, clearMessages, markInvalid } from './console.js';
import { list, numberOrNull, text } from './search-console.js';

const form = $('site-form');
form.elements.namedItem('name').focus();

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearMessages(form);
  busy($('save'), async () => {
    const body = {
      name: text(form, 'name'),
      description: text(form, 'description'),
      locales: list(text(form, 'locales')),
    };
    const rows = numberOrNull(form, 'rowsPerPage');
    if (rows !== null) body.rowsPerPage = rows;
    try {
      const site = await api('POST', '/api/sn', body);
      location.assign(`/console/sites/${encodeURIComponent(site.id)}`);
    } catch (error) {
      markInvalid(form, error);
      throw error;
    }
  });
});
