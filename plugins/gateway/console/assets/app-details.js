import { fillAppForm, readAppForm } from './app-form.js';
import { $, api, showLoadError, showSaved, wireDelete, wireSubmit } from './console.js';

const form = $('app-form');
const path = `/api/v2/app/${encodeURIComponent(form.dataset.appId)}`;

function show(app) {
  fillAppForm(form, app);
  $('app-name').textContent = app.name;
  document.title = `${app.name} · Vela Gateway`;
}

wireSubmit(form, form.querySelector('button[type="submit"]'), async () => {
  show(await api('PUT', path, readAppForm(form)));
  showSaved('App saved.');
});

wireDelete($('delete'), {
  title: 'Delete this app?',
  text: () => 'Its keys and every token it was given stop working at once.',
  path,
  next: '/console/app',
});

api('GET', path).then(show, (error) => showLoadError(error, form));
