import { $, api, busy, clearMessages, confirmWith, markInvalid, showError, showSaved } from './console.js';
import { fillAppForm, readAppForm } from './app-form.js';

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

$('delete').addEventListener('click', async () => {
  if (!(await confirmWith($('confirm-delete'), 'delete'))) return;
  try {
    await api('DELETE', path);
    location.assign('/console/app');
  } catch (error) {
    showError(error);
  }
});

api('GET', path).then(show, showError);
