import { $, api, busy, confirmAction, showError, showLoadError, showSaved, wireCopyButtons } from './console.js';
import { startGrant } from './grant-flow.js';

const root = $('keys');
const path = `/api/v2/app/${encodeURIComponent(root.dataset.appId)}`;
let current = null;

const CREDENTIALS = ['apiKey', 'apiSecret', 'accessToken', 'accessTokenSecret'];

function show(app) {
  current = app;
  $('app-name').textContent = app.name;
  document.title = `${app.name} · Keys and Access Tokens · Vela Gateway`;
  for (const name of CREDENTIALS) {
    const value = app[name];
    $(name).textContent = value || '— (revoked)';
    root.querySelector(`button[data-copy="${name}"]`).disabled = !value;
  }
  $('authorize-endpoint').textContent = `${location.origin}/api/authorize`;
  $('token-endpoint').textContent = `${location.origin}/api/token`;
}

/** A write on the app that answers the app, after the administrator confirms it. */
async function act(button, question, method, suffix, done) {
  if (!(await confirmAction({ ...question, confirmLabel: button.textContent }))) return;
  await busy(button, async () => {
    const answer = await api(method, path + suffix);
    // Some writes answer the app, others nothing: read it again to show what is stored now.
    show(answer?.id ? answer : await api('GET', path));
    showSaved(done);
  });
}

$('gen-key').addEventListener('click', (event) =>
  act(
    event.currentTarget,
    {
      title: 'Regenerate the Consumer Key and Secret?',
      text: 'New ones replace the current ones; clients using the old ones must be updated.',
    },
    'PUT',
    '/gen_key',
    'New Consumer Key and Secret generated.',
  ),
);
$('gen-token').addEventListener('click', (event) =>
  act(
    event.currentTarget,
    {
      title: 'Regenerate the Access Token and Secret?',
      text: 'New ones replace the current ones; the old Access Token stops working at once.',
    },
    'PUT',
    '/gen_token',
    'New Access Token and Secret generated.',
  ),
);
$('revoke-tokens').addEventListener('click', (event) =>
  act(
    event.currentTarget,
    {
      title: 'Revoke every access token of this app?',
      text: 'Its own Access Token and every token issued to it by the grants stop working at once.',
    },
    'DELETE',
    '/accessTokens',
    'All access tokens of this app were revoked.',
  ),
);

for (const [id, responseType] of [
  ['try-code', 'code'],
  ['try-implicit', 'token'],
]) {
  $(id).addEventListener('click', async (event) => {
    event.preventDefault();
    if (!current?.apiKey) return;
    try {
      location.assign(await startGrant(responseType, current.apiKey));
    } catch (error) {
      showError(error);
    }
  });
}

wireCopyButtons();
api('GET', path).then(show, (error) => showLoadError(error, root));
