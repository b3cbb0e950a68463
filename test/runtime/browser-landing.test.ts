import test from 'ava';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// What a browser meets on each port: a landing page, a sign-in page instead of a Basic dialog, a favicon
// and Swagger UI; API clients keep their JSON answers.
let vela: TestRuntime;
const SERVICES = ['gateway', 'search', 'connector'] as const;
/** Headers of a browser's navigation (Chromium's Accept and fetch metadata). */
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-site': 'none',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
};
/** Headers of a page script's fetch() in a browser. */
const PAGE_FETCH = {
  accept: 'application/json',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
};
/** An admin API route of each service. */
const ADMIN_API = { gateway: '/api/v2/mapping', search: '/api/sn', connector: '/api/v2/connector/source' };
const LANDING = { gateway: '/console/dashboard', search: '/console/sites', connector: '/console/status' };

test.before(async () => {
  vela = await startTestRuntime();
});
test.after.always(() => vela?.stop());

const get = (service: string, path: string, headers: Record<string, string> = {}) =>
  vela.fetch(service, path, { headers, redirect: 'manual' });

for (const service of SERVICES) {
  test(`${service}: / is a landing page, behind the sign-in page`, async (t) => {
    const root = await get(service, '/', NAVIGATION);
    t.is(root.status, 302);
    t.is(root.headers.get('location'), LANDING[service]);
    const landing = await get(service, LANDING[service], NAVIGATION);
    t.is(landing.status, 302);
    t.regex(landing.headers.get('location') ?? '', /^\/console\/login\?next=/);
    const signIn = await get(service, '/console/login', NAVIGATION);
    t.is(signIn.status, 200);
    t.regex(signIn.headers.get('content-type') ?? '', /^text\/html/);
    const signedIn = await get(service, LANDING[service], { ...NAVIGATION, authorization: vela.adminAuth });
    t.is(signedIn.status, 302, 'pages take a console session, not Basic credentials');
  });

  test(`${service}: a browser asking for an API page is sent to sign-in; API clients get 401 JSON`, async (t) => {
    const path = ADMIN_API[service];
    const page = await get(service, path, NAVIGATION);
    t.is(page.status, 302);
    t.is(page.headers.get('location'), `/console/login?next=${encodeURIComponent(path)}`);
    t.is(page.headers.get('www-authenticate'), null);

    const script = await get(service, path, PAGE_FETCH);
    t.is(script.status, 401);
    t.is(script.headers.get('www-authenticate'), null, 'no Basic challenge: it would open the browser dialog');
    t.like(await script.json(), { error: 'unauthorized' });

    const curl = await get(service, path, { accept: '*/*' });
    t.is(curl.status, 401);
    t.regex(
      curl.headers.get('www-authenticate') ?? '',
      /^Basic /,
      'HTTP clients are still asked for Basic credentials',
    );
    t.like(await curl.json(), { error: 'unauthorized' });
  });

  test(`${service}: favicon and Swagger UI from the local package`, async (t) => {
    const icon = await get(service, '/favicon.ico');
    t.is(icon.status, 200);
    t.is(icon.headers.get('content-type'), 'image/svg+xml');
    t.regex(await icon.text(), /<svg/);

    const ui = await get(service, '/swagger-ui.html', NAVIGATION);
    t.is(ui.status, 200);
    const policy = ui.headers.get('content-security-policy') ?? '';
    t.notRegex(policy, /unsafe-inline|unsafe-eval/);
    t.regex(policy, /script-src 'self'/);
    const html = await ui.text();
    t.notRegex(html, /<script>|<style>| style=/, 'no inline script or style');
    for (const [, file] of html.matchAll(/(?:src|href)="(\/swagger-ui\/[^"]+)"/g)) {
      const res = await get(service, file!);
      t.is(res.status, 200, file);
      t.true((await res.arrayBuffer()).byteLength > 100, file);
    }
    t.is((await get(service, '/swagger-ui/')).headers.get('location'), '/swagger-ui.html');
    t.is((await get(service, '/swagger-ui/../package.json')).status, 404);
    t.is((await get(service, '/swagger-ui/package.json')).status, 404, 'only the files the page loads are served');
  });
}

for (const service of SERVICES) {
  test(`${service}: a browser asking an unknown path gets a small HTML 404 page; API clients keep the JSON 404`, async (t) => {
    // `&` and `'` reach the server as they are (fetch encodes `<`, `>` and `"`), so they show the path is escaped.
    const page = await get(service, "/no/such&page'here", NAVIGATION);
    t.is(page.status, 404);
    t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    t.regex(policy, /^default-src 'none'/);
    t.notRegex(policy, /unsafe-inline|unsafe-eval/);
    t.regex(policy, /frame-ancestors 'none'/);
    const html = await page.text();
    t.true(html.includes(`<title>Not found · Vela ${service} service</title>`));
    t.true(html.includes('<code>/no/such&amp;page&#39;here</code>'), 'the path is text, escaped');
    t.false(html.includes("such&page'here"));
    t.regex(html, /<a href="\/">/, "a link to the service's start page");
    t.notRegex(html, /<script|<style| style=| on[a-z]+=/, 'nothing inline that the policy would have to allow');

    const root = await get(service, '/', { ...NAVIGATION, accept: 'text/html' });
    t.not(root.status, 404, 'the link leads somewhere');

    for (const accept of ['*/*', 'application/json', 'application/json, text/html;q=0.9']) {
      const api = await get(service, '/no/such/page', { accept });
      t.is(api.status, 404, accept);
      t.regex(api.headers.get('content-type') ?? '', /^application\/json/, accept);
      t.deepEqual(
        await api.json(),
        { error: 'not_found', message: `no route for GET /no/such/page on the ${service} service` },
        accept,
      );
    }
    const posted = await vela.fetch(service, '/no/such/page', { method: 'POST', headers: NAVIGATION });
    t.is(posted.status, 404);
    t.like(await posted.json(), { error: 'not_found' }, 'only a GET or HEAD navigation is a page');
  });
}
