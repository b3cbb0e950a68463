import { $ } from './console.js';

/** Show the authorization server's error, when the redirect carried one instead of a code or token. */
export function showAuthorizeError() {
  const box = $('authorize-error');
  if (box?.dataset.error) box.hidden = false;
}

export function showCurlExample(accessToken) {
  $('curl-example').textContent =
    `curl -H "Authorization: Bearer ${accessToken}" ${location.origin}/<mapping_name>/<sub_path>`;
}
