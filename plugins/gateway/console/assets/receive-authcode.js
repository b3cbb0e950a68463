import { $, h } from './console.js';
import { forgetGrant, takeGrant } from './grant-flow.js';
import { showAuthorizeError, showCurlExample } from './receiver-page.js';

const form = $('exchange-form');
const state = $('state').textContent;
const grant = takeGrant(state);
const field = (name) => form.elements.namedItem(name);

showAuthorizeError();
field('redirect_uri').value = location.origin + location.pathname;
if (grant?.clientId) field('client_id').value = grant.clientId;
if (!field('code').value) $('exchange').disabled = true;
(field('client_id').value ? field('client_secret') : field('client_id')).focus();

function showError(message) {
  const box = $('error');
  box.replaceChildren(message);
  box.hidden = false;
}

async function exchange() {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: field('code').value,
    redirect_uri: field('redirect_uri').value,
    client_id: field('client_id').value.trim(),
  });
  if (field('client_secret').value) body.set('client_secret', field('client_secret').value);
  if (grant?.codeVerifier) body.set('code_verifier', grant.codeVerifier);
  let response;
  try {
    response = await fetch('/api/token', {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
      credentials: 'omit',
    });
  } catch {
    return showError('The gateway did not answer. Check that it is running and try again.');
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    // RFC 6749 errors: {error, error_description}; the gateway's own shape: {error, message}.
    return showError(
      h(
        'span',
        {},
        h('code', { text: answer.error ?? response.status }),
        ` ${answer.error_description ?? answer.message ?? response.statusText}`,
      ),
    );
  }
  forgetGrant(state);
  for (const name of ['access_token', 'token_type', 'expires_in', 'refresh_token']) {
    $(name).textContent = answer[name] ?? '—';
  }
  $('refresh_token').closest('dd').previousElementSibling.hidden = !answer.refresh_token;
  $('refresh_token').closest('dd').hidden = !answer.refresh_token;
  showCurlExample(answer.access_token);
  $('token-result').hidden = false;
  $('exchange').disabled = true;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  $('error').hidden = true;
  if (!field('client_id').value.trim()) {
    field('client_id').setAttribute('aria-invalid', 'true');
    return showError('Enter the Consumer Key of the app the code was issued to.');
  }
  field('client_id').removeAttribute('aria-invalid');
  $('exchange').disabled = true;
  try {
    await exchange();
  } finally {
    if ($('token-result').hidden) $('exchange').disabled = false;
  }
});
