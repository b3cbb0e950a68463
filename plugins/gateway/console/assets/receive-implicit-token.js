import { $ } from './console.js';
import { forgetGrant } from './grant-flow.js';
import { showAuthorizeError, showCurlExample } from './receiver-page.js';

// The gateway puts the implicit grant's answer in the query; a client that follows RFC 6749 to the
// letter puts it in the fragment. Show whichever arrived.
const fragment = new URLSearchParams(location.hash.slice(1));
for (const name of ['access_token', 'state', 'token_type', 'expires_in']) {
  if (!$(name).textContent && fragment.get(name)) $(name).textContent = fragment.get(name);
}
if (fragment.get('error')) {
  $('authorize-error').dataset.error = fragment.get('error');
  $('authorize-error').textContent =
    `The authorization server answered ${fragment.get('error')}: ${fragment.get('error_description') ?? ''}`;
}

showAuthorizeError();
forgetGrant($('state').textContent);
if ($('access_token').textContent) showCurlExample($('access_token').textContent);
