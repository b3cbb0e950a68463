import { fillAppForm, readAppForm } from './app-form.js';
import { $, api, busy, clearMessages, markInvalid, showLoadError, showSaved, wireDelete } from './console.js';

const form = $('app-form');
const path = `/api/v2/app/${encodeURIComponent(form.dataset.appId)}`;

function show(app) {
  fillAppForm(form, app);
  $('app-name').textContent = app.name;
  document.title = `${app.name} · Vela Gateway`;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearMessages(form);
  busy(form.querySelector('button[type="submit"]'), async () => {
    try {
      show(await api('PUT', path, readAppForm(form)));
      showSaved('App saved.');
    } catch (error) {
      markInvalid(form, error);
      throw error;
    }
  });
});

wireDelete($('delete'), {
  title: 'Delete this app?',
  text: () => 'Its keys and every token it was given stop working at once.',
  path,
  next: '/console/app',
});

api('GET', path).then(show, (error) => showLoadError(error, form));
