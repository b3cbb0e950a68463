import test from 'ava';
import { browserSuite, pageLayoutProblems, submitConsoleSignIn, VIEWPORTS } from 'vela/testing';
import { signIn } from './console-sign-in.js';
import { closedPort, createMapping, type LocalServer, startGateway, startServer } from './fixtures.js';

const HEX32 = /^[0-9a-f]{32}$/;
// Set VELA_SCREENSHOT_DIR to keep a picture of every page the test visits.
const screenshots = process.env.VELA_SCREENSHOT_DIR;

let upstream: LocalServer;
const upstreamPaths: string[] = [];

const ui = browserSuite(test, async () => {
  upstream = await startServer((req, res) => {
    if (req.url === '/base/health') return res.writeHead(200).end('ok');
    upstreamPaths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
  });
  // Response times reach the store every 100 ms, so the dashboard shows the requests within a test's
  // patience; the scheduled health checks stay at their default, and the test runs them with "Check now".
  return startGateway({ responseTimes: { flushMs: 100 } });
});
test.after.always(async () => {
  await upstream?.close();
});

const url = (path: string) => ui.vela.url('gateway', path);
const text = async (selector: string) => ((await ui.page.locator(selector).textContent()) ?? '').trim();
const shot = async (name: string) => {
  if (screenshots) await ui.page.screenshot({ path: `${screenshots}/${name}.png`, fullPage: true });
};
const proxied = (path: string, token: string) =>
  fetch(url(path), { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });

/** Confirm the page's open <dialog>. */
async function confirm(buttonSelector: string) {
  await ui.page.locator('dialog[open]').waitFor();
  await ui.page.click(buttonSelector);
}

let credentials: { apiKey: string; apiSecret: string; accessToken: string; accessTokenSecret: string };
let appKeysUrl: string;
let codeToken: string;
let codePageUrl: string;
let implicitToken: string;

/** The app's keys tab, once it shows the consumer key it has now. */
async function openAppKeys() {
  await ui.page.goto(appKeysUrl);
  await ui.page.waitForFunction((v) => document.getElementById('apiKey')?.textContent === v, credentials.apiKey);
}

/** Start a grant from the console: its link on the app's keys tab, then the page the grant lands on. */
async function startGrant(link: string, landing: RegExp) {
  await ui.page.getByRole('link', { name: link }).click();
  await ui.page.waitForURL(landing);
}

ui.test('the administrator signs in and lands on the page first asked for', async (t) => {
  await ui.page.goto(url('/console/mapping'));
  await ui.page.waitForURL(/\/console\/login\?next=%2Fconsole%2Fmapping$/);
  await shot('sign-in');
  await submitConsoleSignIn(ui.page, 'not the password');
  await ui.page.waitForSelector('text=The user name or password is not right.');
  await submitConsoleSignIn(ui.page);
  await ui.page.waitForURL(url('/console/mapping'));
  await ui.page.waitForFunction(() =>
    document.getElementById('mappings-status')?.textContent?.startsWith('No mappings yet'),
  );
  t.is(await text('.topbar .user'), 'admin');
});

ui.test('a mapping is created, refused with the field named when invalid, and listed', async (t) => {
  await ui.page.getByRole('link', { name: 'New mapping' }).click();
  await ui.page.waitForURL(url('/console/mapping/new'));
  await ui.page.fill('#context', 'echo');
  await ui.page.fill('#url', 'not a url');
  await ui.page.click('#save');
  await ui.page.waitForSelector('#error:not([hidden])');
  t.true((await ui.page.locator('[aria-invalid="true"]').count()) >= 1, 'the field the API named is marked');

  await ui.page.fill('#context', 'echo/api');
  await ui.page.fill('#url', `${upstream.url}/base`);
  await ui.page.fill('#description', 'Loopback echo');
  await ui.page.fill('#timeoutMs', '5000');
  await ui.page.fill('#healthCheckPath', '/base/health');
  await shot('mapping-new');
  await ui.page.click('#save');
  await ui.page.waitForURL(url('/console/mapping'));
  await ui.page.waitForSelector('#mappings tbody tr');
  t.deepEqual(await ui.page.locator('#mappings tbody tr td:nth-child(2)').allTextContents(), ['/proxy/echo/api']);
  t.deepEqual(await ui.page.locator('#mappings tbody tr td:nth-child(3)').allTextContents(), ['/echo/api']);
  await shot('mapping-list');
});

ui.test('an app is created and its keys tab shows the four credentials', async (t) => {
  await ui.page.getByRole('link', { name: 'Apps' }).click();
  await ui.page.waitForURL(url('/console/app'));
  await ui.page.getByRole('link', { name: 'New app' }).click();
  // The form's script focuses the name when it runs: on a loaded machine that may be after the first fill, and
  // the focus it takes would send the description's text into the name.
  await ui.page.waitForFunction(() => document.activeElement?.id === 'name');
  await ui.page.fill('#name', 'Console app');
  await ui.page.fill('#description', 'Made in the browser test');
  await ui.page.fill('#callbackUrls', 'http://127.0.0.1:1/callback');
  await shot('app-new');
  await ui.page.getByRole('button', { name: 'Create app' }).click();
  await ui.page.waitForURL(/\/console\/app\/[^/]+\/keys$/);
  appKeysUrl = ui.page.url();
  await ui.page.waitForFunction(() =>
    /^[0-9a-f]{32}$/.test(document.getElementById('accessTokenSecret')?.textContent ?? ''),
  );
  credentials = {
    apiKey: await text('#apiKey'),
    apiSecret: await text('#apiSecret'),
    accessToken: await text('#accessToken'),
    accessTokenSecret: await text('#accessTokenSecret'),
  };
  for (const value of Object.values(credentials)) t.regex(value, HEX32);
  t.is(new Set(Object.values(credentials)).size, 4);
  t.is(await ui.page.locator('nav.tabs a[aria-current="page"]').textContent(), 'Keys and Access Tokens');
  await shot('app-keys');

  await ui.page.getByRole('link', { name: 'Apps', exact: true }).click();
  await ui.page.waitForSelector('#apps tbody tr');
  t.deepEqual(await ui.page.locator('#apps tbody tr td:first-child').allTextContents(), ['Console app']);
  t.is(await text('#apps tbody tr td:nth-child(3)'), credentials.apiKey);
  await shot('app-list');
});

ui.test('regenerating the access token replaces it and the old one stops working', async (t) => {
  const old = credentials.accessToken;
  t.is((await proxied('/echo/api/ping', old)).status, 200);
  await ui.page.goto(appKeysUrl);
  await ui.page.waitForFunction((v) => document.getElementById('accessToken')?.textContent === v, old);
  await ui.page.getByRole('button', { name: 'Regenerate Access Token and Secret' }).click();
  await confirm('#confirm-button');
  await ui.page.waitForFunction((v) => {
    const now = document.getElementById('accessToken')?.textContent ?? '';
    return now !== v && /^[0-9a-f]{32}$/.test(now);
  }, old);
  await ui.page.waitForSelector('text=New Access Token and Secret generated.');
  credentials.accessToken = await text('#accessToken');
  t.not(await text('#accessTokenSecret'), credentials.accessTokenSecret);
  t.is(await text('#apiKey'), credentials.apiKey, 'the consumer key is kept');
  t.is((await proxied('/echo/api/ping', old)).status, 401);
  t.is((await proxied('/echo/api/ping', credentials.accessToken)).status, 200);
});

ui.test('regenerating the consumer key gives a new key and secret', async (t) => {
  await ui.page.getByRole('button', { name: 'Regenerate Consumer Key and Secret' }).click();
  await confirm('#confirm-button');
  await ui.page.waitForFunction((v) => {
    const now = document.getElementById('apiKey')?.textContent ?? '';
    return now !== v && /^[0-9a-f]{32}$/.test(now);
  }, credentials.apiKey);
  const apiSecret = await text('#apiSecret');
  t.regex(apiSecret, HEX32);
  t.not(apiSecret, credentials.apiSecret);
  credentials.apiKey = await text('#apiKey');
  credentials.apiSecret = apiSecret;
});

ui.test('the authorization-code grant lands on receive_authcode, which exchanges the code for a token', async (t) => {
  await startGrant('Authorization-code grant', /\/console\/oauth2\/receive_authcode\?code=/);
  const code = await text('#code');
  t.regex(code, HEX32);
  t.truthy(await text('#state'), 'the state the console sent comes back');
  t.is(
    await ui.page.inputValue('#client_id'),
    credentials.apiKey,
    'the console remembered which app started the grant',
  );
  t.is(await ui.page.inputValue('#redirect_uri'), url('/console/oauth2/receive_authcode'));
  await ui.page.fill('#client_secret', credentials.apiSecret);
  await shot('receive-authcode');
  await ui.page.getByRole('button', { name: 'Get access token' }).click();
  await ui.page.waitForSelector('#token-result:not([hidden])');
  codeToken = await text('#access_token');
  t.regex(codeToken, HEX32);
  t.is(await text('#token_type'), 'bearer');
  t.is(await text('#expires_in'), '3600');
  t.regex(await text('#curl-example'), new RegExp(`Authorization: Bearer ${codeToken}`));
  codePageUrl = ui.page.url();
  await shot('receive-authcode-token');
});

ui.test(
  'the implicit grant lands on receive_implicit_token, which shows the token, state, type and lifetime',
  async (t) => {
    await openAppKeys();
    await startGrant('Implicit grant', /\/console\/oauth2\/receive_implicit_token\?/);
    const query = new URL(ui.page.url()).searchParams;
    implicitToken = await text('#access_token');
    t.regex(implicitToken, HEX32);
    t.is(implicitToken, query.get('access_token') ?? '');
    t.is(await text('#state'), query.get('state') ?? '');
    t.truthy(query.get('state'));
    t.is(await text('#token_type'), 'bearer');
    t.is(await text('#expires_in'), '3600');
    await shot('receive-implicit-token');
  },
);

ui.test(
  'a code grant started from the console is exchanged with its PKCE verifier alone, no secret typed',
  async (t) => {
    await openAppKeys();
    await startGrant('Authorization-code grant', /\/console\/oauth2\/receive_authcode\?code=/);
    t.is(await ui.page.inputValue('#client_secret'), '');
    await ui.page.getByRole('button', { name: 'Get access token' }).click();
    await ui.page.waitForSelector('#token-result:not([hidden])');
    t.regex(await text('#access_token'), HEX32);
  },
);

ui.test(
  'requests proxied with the three kinds of token reach the upstream and the dashboard counts them',
  async (t) => {
    const calls: Array<[string, string]> = [
      ['/echo/api/items?page=1', codeToken],
      ['/echo/api/items?page=2', codeToken],
      ['/echo/api/items/7', codeToken],
      ['/echo/api', implicitToken],
      ['/echo/api/search?q=x', implicitToken],
      ['/echo/api/own', credentials.accessToken],
    ];
    const before = upstreamPaths.length;
    for (const [path, token] of calls) {
      const res = await proxied(path, token);
      t.is(res.status, 200, path);
      t.deepEqual(await res.json(), { path: `/base${path.slice('/echo/api'.length)}` });
    }
    t.is(upstreamPaths.length - before, calls.length);
    t.is((await proxied('/echo/api/items', 'ffffffffffffffffffffffffffffffff')).status, 401);
    // Two requests earlier in this file (the regenerate test) went through with the app's token.
    const expected = calls.length + 2;
    // A second mapping whose upstream is down: its requests are counted as errors.
    await createMapping(ui.vela, { context: '/proxy/down/api', url: `http://127.0.0.1:${await closedPort()}/gone` });
    for (let i = 0; i < 2; i += 1) t.is((await proxied('/down/api/x', implicitToken)).status, 502);

    await ui.page.goto(url('/console/dashboard'));
    const row = ui.page.locator('#summary tbody tr', { hasText: '/proxy/echo/api' });
    const deadline = Date.now() + 20_000;
    while (
      (await row
        .locator('td.count')
        .textContent()
        .catch(() => null)) !== String(expected) &&
      Date.now() < deadline
    ) {
      await ui.page.click('#refresh');
      await ui.page.waitForTimeout(250);
    }
    t.is(await row.locator('td.count').textContent(), String(expected));
    const down = ui.page.locator('#summary tbody tr', { hasText: '/proxy/down/api' });
    await down.locator('td.count', { hasText: '2' }).waitFor();
    t.is(await down.locator('td').nth(3).textContent(), '100%', 'both answers were 502');
    const counts = async (selector: string, attribute: string) =>
      (
        await ui.page
          .locator(selector)
          .evaluateAll((nodes, name) => nodes.map((node) => Number(node.getAttribute(name))), attribute)
      ).reduce((a, b) => a + b, 0);
    t.is(
      await counts('#requests-chart rect[data-count]', 'data-count'),
      expected + 2,
      'the request chart adds up to the requests made',
    );
    t.is(await counts('#requests-chart g.bar', 'data-errors'), 2, 'and counts the failed ones');
    t.true((await ui.page.locator('#latency-chart svg .series circle').count()) >= 1, 'the latency chart has points');
    t.regex(
      (await ui.page.locator('#requests-chart svg').getAttribute('aria-label'))!,
      new RegExp(`${expected + 2} in this window`),
    );
    t.regex(await text('#summary-status'), new RegExp(`^${expected + 2} proxied requests`));

    // "Check now" runs the health checks at once and shows their answer.
    await ui.page.getByRole('button', { name: 'Check now' }).click();
    const monitor = ui.page.locator('#monitoring tbody tr', { hasText: 'echo' });
    await monitor.locator('.badge', { hasText: 'UP' }).waitFor();
    t.regex((await monitor.locator('td').last().textContent()) ?? '', /200/);
    await ui.page.locator('#monitoring tbody tr', { hasText: 'down' }).locator('.badge', { hasText: 'DOWN' }).waitFor();
    t.is(await text('#monitoring-status'), '1 of 2 upstreams up');
    await ui.page.click('.segmented button[data-metric="p99Ms"]');
    t.is(await ui.page.getAttribute('.segmented button[data-metric="p99Ms"]', 'aria-pressed'), 'true');
    await shot('dashboard');
  },
);

ui.test(
  'every console page fits a phone and a laptop; on a phone the navigation folds behind Menu and tables become cards',
  async (t) => {
    t.timeout(180_000);
    await ui.page.goto(url('/console/mapping'));
    const mappingUrl = url((await ui.page.getByRole('link', { name: 'Edit /proxy/echo/api' }).getAttribute('href'))!);
    // Each page with what shows it has loaded: the tables are filled by the page's script.
    const pages: Array<[string, string, string]> = [
      ['dashboard', url('/console/dashboard'), '#summary tbody tr'],
      ['mapping-list', url('/console/mapping'), '#mappings tbody tr'],
      ['mapping-new', url('/console/mapping/new'), '#context'],
      ['mapping-edit', mappingUrl, '#description'],
      ['app-list', url('/console/app'), '#apps tbody tr'],
      ['app-new', url('/console/app/new'), '#name'],
      ['app-details', appKeysUrl.replace(/\/keys$/, ''), '#callbackUrls'],
      ['app-keys', appKeysUrl, '#apiKey:not(:empty)'],
    ];
    // Besides the two widths every page is tried at, a small Android phone (360 px): long button labels and URLs wrap.
    for (const [width, viewport] of Object.entries({ ...VIEWPORTS, 'small-phone': { width: 360, height: 740 } })) {
      await ui.page.setViewportSize(viewport);
      for (const [name, address, ready] of pages) {
        await ui.page.goto(address);
        await ui.page.locator(ready).first().waitFor();
        t.deepEqual(await pageLayoutProblems(ui.page, ui.vela, `${name}-${width}.png`), [], `${name} at ${width}`);
      }
      const menu = ui.page.locator('.nav-toggle');
      const nav = ui.page.locator('.topbar nav');
      if (width !== 'desktop') {
        t.true(await nav.isHidden(), 'the navigation is folded away on a phone');
        await menu.click();
        t.is(await menu.getAttribute('aria-expanded'), 'true');
        await ui.page.getByRole('link', { name: 'Mappings' }).click();
        await ui.page.waitForURL(url('/console/mapping'));
        // The table is a card per mapping, each value beside its column's name.
        await ui.page.locator('#mappings tbody tr').first().waitFor();
        t.true(await ui.page.locator('#mappings thead').isHidden());
        const label = await ui.page
          .locator('#mappings tbody td')
          .nth(1)
          .evaluate((td) => getComputedStyle(td, '::before').content);
        t.is(label, '"Context"');
      } else {
        t.true(await menu.isHidden(), 'no Menu button where the navigation has room');
        t.true(await nav.isVisible());
      }
    }
    const signInPage = await ui.browser.newPage({ viewport: VIEWPORTS.phone });
    await signInPage.goto(url('/console/login'));
    t.deepEqual(await pageLayoutProblems(signInPage, ui.vela, 'sign-in-phone.png'), []);
    await signInPage.close();
    await ui.page.setViewportSize(VIEWPORTS.desktop);
  },
);

ui.test('a code used twice is refused on the receiver page, and the token it gave is revoked', async (t) => {
  await ui.page.goto(codePageUrl);
  await ui.page.fill('#client_id', credentials.apiKey);
  await ui.page.fill('#client_secret', credentials.apiSecret);
  await ui.page.getByRole('button', { name: 'Get access token' }).click();
  await ui.page.waitForSelector('#error:not([hidden])');
  t.regex(await text('#error'), /invalid_grant/);
  t.true(await ui.page.locator('#token-result').isHidden());
  // RFC 6749 §4.1.2: a replayed code may be a stolen one, so what it gave stops working.
  t.is((await proxied('/echo/api/items', codeToken)).status, 401);
  t.is((await proxied('/echo/api/items', implicitToken)).status, 200, 'other tokens of the app are untouched');
});

ui.test('revoking all access tokens stops every token of the app at the proxy', async (t) => {
  await openAppKeys();
  await ui.page.getByRole('button', { name: 'Revoke all access tokens' }).click();
  await confirm('#confirm-button');
  await ui.page.waitForSelector('text=All access tokens of this app were revoked.');
  for (const token of [implicitToken, credentials.accessToken])
    t.is((await proxied('/echo/api/items', token)).status, 401);
  t.is(await text('#accessToken'), '— (revoked)');
  await shot('app-keys-revoked');
});

ui.test("an app's details are edited on its Details tab, and the app is deleted", async (t) => {
  await ui.page.getByRole('link', { name: 'Details' }).click();
  await ui.page.waitForFunction(
    () => (document.getElementById('name') as HTMLInputElement | null)?.value === 'Console app',
  );
  t.is(await ui.page.inputValue('#callbackUrls'), 'http://127.0.0.1:1/callback');
  await ui.page.fill('#name', 'Console app, renamed');
  await ui.page.fill('#callbackUrls', 'http://127.0.0.1:1/callback\nhttp://127.0.0.1:2/other');
  await ui.page.getByRole('button', { name: 'Save' }).click();
  await ui.page.waitForSelector('text=App saved.');
  t.is(await text('#app-name'), 'Console app, renamed');
  await shot('app-details');
  await ui.page.reload();
  await ui.page.waitForFunction(
    () => (document.getElementById('callbackUrls') as HTMLTextAreaElement | null)?.value.split('\n').length === 2,
  );
  await ui.page.getByRole('button', { name: 'Delete app' }).click();
  await confirm('#confirm-button');
  await ui.page.waitForURL(url('/console/app'));
  await ui.page.waitForFunction(() => document.getElementById('apps-status')?.textContent?.startsWith('No apps yet'));
  t.is(await ui.page.locator('#apps tbody tr').count(), 0);
});

ui.test('a page opened before the session changed asks to be reloaded instead of writing', async (t) => {
  await ui.page.goto(url('/console/mapping'));
  await ui.page.getByRole('link', { name: 'Edit /proxy/echo/api' }).click();
  await ui.page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  // Signing in again (as in another tab) replaces the session cookie, and with it the CSRF token.
  const fresh = await signIn(ui.vela);
  await ui.page
    .context()
    .addCookies([{ name: 'vela_session', value: fresh.cookie.slice('vela_session='.length), url: url('/') }]);
  await ui.page.click('#save');
  await ui.page.waitForSelector('#error:not([hidden])');
  t.regex(await text('#error'), /out of date.*Reload the page/);
  await ui.page.reload();
  await ui.page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  await ui.page.click('#save');
  await ui.page.waitForSelector('text=Mapping saved.');
  t.true(await ui.page.locator('#error').isHidden());
});

ui.test('a mapping is edited and deleted from its page', async (t) => {
  await ui.page.goto(url('/console/mapping'));
  await ui.page.getByRole('link', { name: 'Edit /proxy/echo/api' }).click();
  await ui.page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  await ui.page.fill('#description', 'Loopback echo, edited');
  await ui.page.click('#save');
  await ui.page.waitForSelector('text=Mapping saved.');
  await shot('mapping-edit');
  await ui.page.reload();
  await ui.page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo, edited',
  );
  await ui.page.click('#delete');
  await confirm('#confirm-button');
  await ui.page.waitForURL(url('/console/mapping'));
  await ui.page.waitForFunction(() => document.getElementById('mappings-status')?.textContent === '1 mapping');
  t.deepEqual(await ui.page.locator('#mappings tbody tr td:nth-child(2)').allTextContents(), ['/proxy/down/api']);
  t.is(
    (await proxied('/echo/api/items', credentials.accessToken)).status,
    404,
    'the deleted mapping is gone from the proxy',
  );
});

ui.testSignOut('gateway', '/console/app');
ui.testNoPageErrors();
