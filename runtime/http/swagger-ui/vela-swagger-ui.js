// Starts Swagger UI on this service's own API description. A file of its own, not an inline script:
// the page's policy runs only the service's files.
/* global SwaggerUIBundle */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// Signed in to a console, the session cookie goes with every request; its writes must carry the session's
// CSRF token, which /api/login tells a signed-in browser. The token is asked for only when such a write is
// tried: asking on every load would answer 401 to anyone not signed in (an error in the browser's console
// for nothing), and a write sent with the Key header or Basic credentials (the Authorize button) needs none.
let csrfToken = null;
const sessionToken = async () => {
  if (csrfToken) return csrfToken;
  try {
    const res = await fetch('/api/login', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    csrfToken = res.ok ? ((await res.json()).csrfToken ?? null) : null;
  } catch {
    csrfToken = null;
  }
  return csrfToken;
};
const hasHeader = (headers, name) => Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name);

window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.spec,
  dom_id: '#swagger-ui',
  deepLinking: true,
  requestInterceptor: async (request) => {
    if (
      !UNSAFE.has(String(request.method).toUpperCase()) ||
      hasHeader(request.headers, 'key') ||
      hasHeader(request.headers, 'authorization')
    )
      return request;
    const token = await sessionToken();
    if (token) request.headers['X-CSRF-Token'] = token;
    return request;
  },
});
