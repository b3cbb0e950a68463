import { readAppForm } from './app-form.js';
import { $, api, wireSubmit } from './console.js';

const form = $('app-form');
form.elements.namedItem('name').focus();

wireSubmit(form, form.querySelector('button[type="submit"]'), async () => {
  const app = await api('POST', '/api/v2/app', readAppForm(form));
  // Straight to the credentials the app was just given.
  location.assign(`/console/app/${encodeURIComponent(app.id)}/keys`);
});
