import test from 'ava';
import { consoleSession, startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite } from './fixtures.js';

let vela: TestRuntime;
let site: { id: string };

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search'] });
  site = await createSite(vela, 'Sample');
});
test.after.always(async () => {
  await vela?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  vela.fetch('search', path, { redirect: 'manual', headers });

/** Sign in through the console's form: the session cookie. */
const signIn = () => consoleSession(vela, 'search');

const PAGES = [
  '/console/sites',
  '/console/sites/new',
  '/console/sites/some-id',
  '/console/sites/some-id/fields',
  '/console/sites/some-id/locales',
  '/console/sites/some-id/spotlights',
  '/console/tokens',
];

// Pages of the plugins that extend this console (integration, genai, search-metrics): none of them in this runtime.
const PLUGIN_PAGES = ['/console/integrations', '/console/llm', '/console/sites/some-id/metrics'];

test("the service's address leads a browser to the console", async (t) => {
  for (const path of ['/', '/console', '/console/']) {
    const res = await get(path);
    t.is(res.status, 302, path);
    t.is(res.headers.get('location'), '/console/sites', path);
  }
});

test('a browser without a session is sent to the sign-in page, never asked for Basic credentials', async (t) => {
  for (const path of PAGES) {
    const res = await get(`${path}?x=1`, { accept: 'text/html,application/xhtml+xml' });
    t.is(res.status, 302, path);
    t.is(res.headers.get('location'), `/console/login?next=${encodeURIComponent(`${path}?x=1`)}`, path);
    t.is(res.headers.get('www-authenticate'), null, path);
  }
  const signInPage = await get('/console/login?next=/console/tokens');
  t.is(signInPage.status, 200);
  t.is(signInPage.headers.get('www-authenticate'), null);
  const html = await signInPage.text();
  t.regex(html, /<title>Sign in · Vela Search<\/title>/);
  t.regex(html, /name="next" value="\/console\/tokens"/);
});

test('API clients get 401 JSON: console pages asked for JSON, and the admin API', async (t) => {
  const page = await get('/console/sites', { accept: 'application/json' });
  t.is(page.status, 401);
  t.is(page.headers.get('www-authenticate'), null);
  t.like(await page.json(), { error: 'unauthorized' });
  const apiAnswer = await get('/api/sn');
  t.is(apiAnswer.status, 401);
  t.like(await apiAnswer.json(), { error: 'unauthorized' });
});

test('signed in, every page is an HTML shell with a strict policy, the CSRF token and the navigation', async (t) => {
  const cookie = await signIn();
  for (const path of PAGES) {
    const res = await get(path, { cookie });
    t.is(res.status, 200, path);
    const policy = res.headers.get('content-security-policy')!;
    t.regex(policy, /script-src 'self'/, path);
    t.notRegex(policy, /unsafe-inline/, path);
    t.regex(policy, /frame-ancestors 'none'/, path);
    t.is(res.headers.get('cache-control'), 'no-store', path);
    const html = await res.text();
    t.regex(html, /<meta name="csrf-token" content="[\w-]{20,}">/, path);
    t.regex(html, /<span class="user"[^>]*>admin<\/span>/, path);
    t.notRegex(html, /<script>|\son\w+="/, `${path}: no inline script or handler`);
  }
  const sites = await (await get('/console/sites', { cookie })).text();
  t.regex(sites, /<a href="\/console\/sites" aria-current="page">Sites<\/a>/);
  const settings = await (await get(`/console/sites/${site.id}`, { cookie })).text();
  t.regex(settings, new RegExp(`data-site-id="${site.id}"`));
  const fields = await (await get(`/console/sites/${site.id}/fields`, { cookie })).text();
  const tabs = [...fields.matchAll(/<a href="([^"]+)"( aria-current="page")?>(\w+)<\/a>/g)].filter(([, href]) =>
    href!.startsWith(`/console/sites/${site.id}`),
  );
  t.deepEqual(
    tabs.map(([, href, current, label]) => [href, Boolean(current), label]),
    [
      [`/console/sites/${site.id}`, false, 'Settings'],
      [`/console/sites/${site.id}/fields`, true, 'Fields'],
      [`/console/sites/${site.id}/locales`, false, 'Locales'],
      [`/console/sites/${site.id}/spotlights`, false, 'Spotlights'],
    ],
    "the site's tabs, its own marked",
  );
});

test('without the integration, genai and search-metrics plugins, none of their pages, entries, tabs or files', async (t) => {
  const cookie = await signIn();
  for (const path of PLUGIN_PAGES) t.is((await get(path, { cookie })).status, 404, path);
  const fields = await (await get(`/console/sites/${site.id}/fields`, { cookie })).text();
  for (const href of ['/console/integrations', '/console/llm', `/console/sites/${site.id}/metrics`])
    t.false(fields.includes(`href="${href}"`), href);
  for (const name of ['integrations.js', 'llm.js', 'site-metrics.js', 'term-chart.js'])
    t.is((await get(`/console/assets/${name}`)).status, 404, name);
});

test('a path value reaches the page escaped', async (t) => {
  const cookie = await signIn();
  const html = await (await get('/console/sites/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E/fields', { cookie })).text();
  t.notRegex(html, /<script>alert/);
  t.regex(html, /data-site-id="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
  t.regex(
    html,
    /<a href="\/console\/sites\/%22%3E%3Cscript%3Ealert\(1\)%3C%2Fscript%3E\/fields" aria-current="page">Fields<\/a>/,
    'and encoded in the tabs',
  );
});

test('console files are the kit and the search console files; other names are 404; pages stay out of the API description', async (t) => {
  for (const [name, type] of [
    ['console.js', /^text\/javascript/],
    ['console.css', /^text\/css/],
    ['search-console.css', /^text\/css/],
    ['site-list.js', /^text\/javascript/],
    ['console-tables.js', /^text\/javascript/],
    ['favicon.svg', /^image\/svg\+xml/],
  ] as const) {
    const res = await get(`/console/assets/${name}`);
    t.is(res.status, 200, name);
    t.regex(res.headers.get('content-type')!, type, name);
  }
  for (const name of ['nope.js', 'term-chart.d.ts', '..%2Fmount-console.ts'])
    t.is((await get(`/console/assets/${name}`)).status, 404, name);
  const doc = (await (await get('/v3/api-docs')).json()) as { paths: Record<string, unknown> };
  t.false(Object.keys(doc.paths).some((path) => path.startsWith('/console') || path === '/'));
  t.true('/api/sn/{siteName}/search' in doc.paths);
  t.true('/api/v2/guest/sn' in doc.paths);
});
