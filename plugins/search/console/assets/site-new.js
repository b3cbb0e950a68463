import { $, api, wireSubmit } from './console.js';
import { list, numberOrNull, text } from './console-forms.js';

const form = $('site-form');
form.elements.namedItem('name').focus();

wireSubmit(form, $('save'), async () => {
  const body = {
    name: text(form, 'name'),
    description: text(form, 'description'),
    locales: list(text(form, 'locales')),
  };
  const rows = numberOrNull(form, 'rowsPerPage');
  if (rows !== null) body.rowsPerPage = rows;
  const site = await api('POST', '/api/sn', body);
  location.assign(`/console/sites/${encodeURIComponent(site.id)}`);
});
