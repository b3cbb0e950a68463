import { readAppForm } from './app-form.js';
import { $, api, busy, clearMessages, markInvalid } from './console.js';

const form = $('app-form');
form.elements.namedItem('name').focus();

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearMessages(form);
  busy(form.querySelector('button[type="submit"]'), async () => {
    try {
      const app = await api('POST', '/api/v2/app', readAppForm(form));
      // Straight to the credentials the app was just given.
      location.assign(`/console/app/${encodeURIComponent(app.id)}/keys`);
    } catch (error) {
      markInvalid(form, error);
      throw error;
    }
  });
});
