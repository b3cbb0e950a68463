import test from 'ava';
import { startTestRuntime, TEST_ADMIN, type TestRuntime } from 'vela/testing';
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

function setCookie(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() === name) return pair!.slice(eq + 1).trim();
  }
  return undefined;
}

/** Sign in through the console's form: the session cookie. */
async function signIn(): Promise<string> {
  const page = await get('/console/login');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  const res = await vela.fetch('search', '/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `vela_console_signin=${setCookie(page, 'vela_console_signin')}`,
    },
    body: new URLSearchParams({
      username: TEST_ADMIN.user,
      password: TEST_ADMIN.password,
      csrf: csrf!,
      next: '/console/tokens',
    }).toString(),
  });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return `vela_session=${setCookie(res, 'vela_session')}`;
}

const PAGES = [
  '/console/sites',
  '/console/sites/new',
  '/console/sites/some-id',
  '/console/sites/some-id/fields',
  '/console/sites/some-id/locales',
  '/console/sites/some-id/spotlights',
  '/console/sites/some-id/metrics',
  '/console/tokens',
  '/console/integrations',
  '/console/llm',
];

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
  t.regex(
    sites,
    /<a href="\/console\/integrations" data-requires="\/api\/integration" hidden>Integrations<\/a>/,
    'plugin pages wait for their API',
  );
  t.regex(sites, /<a href="\/console\/llm" data-requires="\/api\/llm" hidden>LLM<\/a>/);
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
  t.regex(
    fields,
    new RegExp(
      `<a href="/console/sites/${site.id}/metrics" data-requires="/api/sn/\\{id\\}/metrics/live" hidden>Metrics</a>`,
    ),
    "the metrics tab waits for the search-metrics plugin's API",
  );
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
    ['site-metrics.js', /^text\/javascript/],
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
