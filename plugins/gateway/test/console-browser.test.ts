import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import {
  browserAvailable,
  openBrowserPage,
  pageLayoutProblems,
  submitConsoleSignIn,
  type TestRuntime,
  VIEWPORTS,
} from 'vela/testing';
import { signIn } from './console-sign-in.js';
import { closedPort, createMapping, type LocalServer, startGateway, startServer } from './fixtures.js';

const browserTest = browserAvailable() ? test.serial : test.skip;
const HEX32 = /^[0-9a-f]{32}$/;
// Set VELA_SCREENSHOT_DIR to keep a picture of every page the test visits.
const screenshots = process.env.VELA_SCREENSHOT_DIR;

let vela: TestRuntime;
let upstream: LocalServer;
let browser: Browser;
let page: Page;
const upstreamPaths: string[] = [];
let pageErrors: string[] = [];

test.before(async () => {
  if (!browserAvailable()) return;
  upstream = await startServer((req, res) => {
    if (req.url === '/base/health') return res.writeHead(200).end('ok');
    upstreamPaths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
  });
  // Response times reach the store every 100 ms, so the dashboard shows the requests within a test's
  // patience; the scheduled health checks stay at their default, and the test runs them with "Check now".
  vela = await startGateway({ responseTimes: { flushMs: 100 } });
  ({ browser, page, pageErrors } = await openBrowserPage());
});
test.after.always(async () => {
  await browser?.close();
  await vela?.stop();
  await upstream?.close();
});

const url = (path: string) => vela.url('gateway', path);
const text = async (selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const shot = async (name: string) => {
  if (screenshots) await page.screenshot({ path: `${screenshots}/${name}.png`, fullPage: true });
};
const proxied = (path: string, token: string) =>
  fetch(url(path), { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });

/** Confirm the page's open <dialog>. */
async function confirm(buttonSelector: string) {
  await page.locator('dialog[open]').waitFor();
  await page.click(buttonSelector);
}

let credentials: { apiKey: string; apiSecret: string; accessToken: string; accessTokenSecret: string };
let appKeysUrl: string;
let codeToken: string;
let codePageUrl: string;
let implicitToken: string;

browserTest('the administrator signs in and lands on the page first asked for', async (t) => {
  await page.goto(url('/console/mapping'));
  await page.waitForURL(/\/console\/login\?next=%2Fconsole%2Fmapping$/);
  await shot('sign-in');
  await submitConsoleSignIn(page, 'not the password');
  await page.waitForSelector('text=The user name or password is not right.');
  await submitConsoleSignIn(page);
  await page.waitForURL(url('/console/mapping'));
  await page.waitForFunction(() =>
    document.getElementById('mappings-status')?.textContent?.startsWith('No mappings yet'),
  );
  t.is(await text('.topbar .user'), 'admin');
});

browserTest('a mapping is created, refused with the field named when invalid, and listed', async (t) => {
  await page.getByRole('link', { name: 'New mapping' }).click();
  await page.waitForURL(url('/console/mapping/new'));
  await page.fill('#context', 'echo');
  await page.fill('#url', 'not a url');
  await page.click('#save');
  await page.waitForSelector('#error:not([hidden])');
  t.true((await page.locator('[aria-invalid="true"]').count()) >= 1, 'the field the API named is marked');

  await page.fill('#context', 'echo/api');
  await page.fill('#url', `${upstream.url}/base`);
  await page.fill('#description', 'Loopback echo');
  await page.fill('#timeoutMs', '5000');
  await page.fill('#healthCheckPath', '/base/health');
  await shot('mapping-new');
  await page.click('#save');
  await page.waitForURL(url('/console/mapping'));
  await page.waitForSelector('#mappings tbody tr');
  t.deepEqual(await page.locator('#mappings tbody tr td:nth-child(2)').allTextContents(), ['/proxy/echo/api']);
  t.deepEqual(await page.locator('#mappings tbody tr td:nth-child(3)').allTextContents(), ['/echo/api']);
  await shot('mapping-list');
});

browserTest('an app is created and its keys tab shows the four credentials', async (t) => {
  await page.getByRole('link', { name: 'Apps' }).click();
  await page.waitForURL(url('/console/app'));
  await page.getByRole('link', { name: 'New app' }).click();
  // The form's script focuses the name when it runs: on a loaded machine that may be after the first fill, and
  // the focus it takes would send the description's text into the name.
  await page.waitForFunction(() => document.activeElement?.id === 'name');
  await page.fill('#name', 'Console app');
  await page.fill('#description', 'Made in the browser test');
  await page.fill('#callbackUrls', 'http://127.0.0.1:1/callback');
  await shot('app-new');
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.waitForURL(/\/console\/app\/[^/]+\/keys$/);
  appKeysUrl = page.url();
  await page.waitForFunction(() =>
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
  t.is(await page.locator('nav.tabs a[aria-current="page"]').textContent(), 'Keys and Access Tokens');
  await shot('app-keys');

  await page.getByRole('link', { name: 'Apps', exact: true }).click();
  await page.waitForSelector('#apps tbody tr');
  t.deepEqual(await page.locator('#apps tbody tr td:first-child').allTextContents(), ['Console app']);
  t.is(await text('#apps tbody tr td:nth-child(3)'), credentials.apiKey);
  await shot('app-list');
});

browserTest('regenerating the access token replaces it and the old one stops working', async (t) => {
  const old = credentials.accessToken;
  t.is((await proxied('/echo/api/ping', old)).status, 200);
  await page.goto(appKeysUrl);
  await page.waitForFunction((v) => document.getElementById('accessToken')?.textContent === v, old);
  await page.getByRole('button', { name: 'Regenerate Access Token and Secret' }).click();
  await confirm('#confirm-button');
  await page.waitForFunction((v) => {
    const now = document.getElementById('accessToken')?.textContent ?? '';
    return now !== v && /^[0-9a-f]{32}$/.test(now);
  }, old);
  await page.waitForSelector('text=New Access Token and Secret generated.');
  credentials.accessToken = await text('#accessToken');
  t.not(await text('#accessTokenSecret'), credentials.accessTokenSecret);
  t.is(await text('#apiKey'), credentials.apiKey, 'the consumer key is kept');
  t.is((await proxied('/echo/api/ping', old)).status, 401);
  t.is((await proxied('/echo/api/ping', credentials.accessToken)).status, 200);
});

browserTest('regenerating the consumer key gives a new key and secret', async (t) => {
  await page.getByRole('button', { name: 'Regenerate Consumer Key and Secret' }).click();
  await confirm('#confirm-button');
  await page.waitForFunction((v) => {
    const now = document.getElementById('apiKey')?.textContent ?? '';
    return now !== v && /^[0-9a-f]{32}$/.test(now);
  }, credentials.apiKey);
  const apiSecret = await text('#apiSecret');
  t.regex(apiSecret, HEX32);
  t.not(apiSecret, credentials.apiSecret);
  credentials.apiKey = await text('#apiKey');
  credentials.apiSecret = apiSecret;
});

browserTest(
  'the authorization-code grant lands on receive_authcode, which exchanges the code for a token',
  async (t) => {
    await page.getByRole('link', { name: 'Authorization-code grant' }).click();
    await page.waitForURL(/\/console\/oauth2\/receive_authcode\?code=/);
    const code = await text('#code');
    t.regex(code, HEX32);
    t.truthy(await text('#state'), 'the state the console sent comes back');
    t.is(await page.inputValue('#client_id'), credentials.apiKey, 'the console remembered which app started the grant');
    t.is(await page.inputValue('#redirect_uri'), url('/console/oauth2/receive_authcode'));
    await page.fill('#client_secret', credentials.apiSecret);
    await shot('receive-authcode');
    await page.getByRole('button', { name: 'Get access token' }).click();
    await page.waitForSelector('#token-result:not([hidden])');
    codeToken = await text('#access_token');
    t.regex(codeToken, HEX32);
    t.is(await text('#token_type'), 'bearer');
    t.is(await text('#expires_in'), '3600');
    t.regex(await text('#curl-example'), new RegExp(`Authorization: Bearer ${codeToken}`));
    codePageUrl = page.url();
    await shot('receive-authcode-token');
  },
);

browserTest(
  'the implicit grant lands on receive_implicit_token, which shows the token, state, type and lifetime',
  async (t) => {
    await page.goto(appKeysUrl);
    await page.waitForFunction((v) => document.getElementById('apiKey')?.textContent === v, credentials.apiKey);
    await page.getByRole('link', { name: 'Implicit grant' }).click();
    await page.waitForURL(/\/console\/oauth2\/receive_implicit_token\?/);
    const query = new URL(page.url()).searchParams;
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

browserTest(
  'a code grant started from the console is exchanged with its PKCE verifier alone, no secret typed',
  async (t) => {
    await page.goto(appKeysUrl);
    await page.waitForFunction((v) => document.getElementById('apiKey')?.textContent === v, credentials.apiKey);
    await page.getByRole('link', { name: 'Authorization-code grant' }).click();
    await page.waitForURL(/\/console\/oauth2\/receive_authcode\?code=/);
    t.is(await page.inputValue('#client_secret'), '');
    await page.getByRole('button', { name: 'Get access token' }).click();
    await page.waitForSelector('#token-result:not([hidden])');
    t.regex(await text('#access_token'), HEX32);
  },
);

browserTest(
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
    await createMapping(vela, { context: '/proxy/down/api', url: `http://127.0.0.1:${await closedPort()}/gone` });
    for (let i = 0; i < 2; i += 1) t.is((await proxied('/down/api/x', implicitToken)).status, 502);

    await page.goto(url('/console/dashboard'));
    const row = page.locator('#summary tbody tr', { hasText: '/proxy/echo/api' });
    const deadline = Date.now() + 20_000;
    while (
      (await row
        .locator('td.count')
        .textContent()
        .catch(() => null)) !== String(expected) &&
      Date.now() < deadline
    ) {
      await page.click('#refresh');
      await page.waitForTimeout(250);
    }
    t.is(await row.locator('td.count').textContent(), String(expected));
    const down = page.locator('#summary tbody tr', { hasText: '/proxy/down/api' });
    await down.locator('td.count', { hasText: '2' }).waitFor();
    t.is(await down.locator('td').nth(3).textContent(), '100%', 'both answers were 502');
    const counts = async (selector: string, attribute: string) =>
      (
        await page
          .locator(selector)
          .evaluateAll((nodes, name) => nodes.map((node) => Number(node.getAttribute(name))), attribute)
      ).reduce((a, b) => a + b, 0);
    t.is(
      await counts('#requests-chart rect[data-count]', 'data-count'),
      expected + 2,
      'the request chart adds up to the requests made',
    );
    t.is(await counts('#requests-chart g.bar', 'data-errors'), 2, 'and counts the failed ones');
    t.true((await page.locator('#latency-chart svg .series circle').count()) >= 1, 'the latency chart has points');
    t.regex(
      (await page.locator('#requests-chart svg').getAttribute('aria-label'))!,
      new RegExp(`${expected + 2} in this window`),
    );
    t.regex(await text('#summary-status'), new RegExp(`^${expected + 2} proxied requests`));

    // "Check now" runs the health checks at once and shows their answer.
    await page.getByRole('button', { name: 'Check now' }).click();
    const monitor = page.locator('#monitoring tbody tr', { hasText: 'echo' });
    await monitor.locator('.badge', { hasText: 'UP' }).waitFor();
    t.regex((await monitor.locator('td').last().textContent()) ?? '', /200/);
    await page.locator('#monitoring tbody tr', { hasText: 'down' }).locator('.badge', { hasText: 'DOWN' }).waitFor();
    t.is(await text('#monitoring-status'), '1 of 2 upstreams up');
    await page.click('.segmented button[data-metric="p99Ms"]');
    t.is(await page.getAttribute('.segmented button[data-metric="p99Ms"]', 'aria-pressed'), 'true');
    await shot('dashboard');
  },
);

browserTest(
  'every console page fits a phone and a laptop; on a phone the navigation folds behind Menu and tables become cards',
  async (t) => {
    t.timeout(180_000);
    await page.goto(url('/console/mapping'));
    const mappingUrl = url((await page.getByRole('link', { name: 'Edit /proxy/echo/api' }).getAttribute('href'))!);
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
      await page.setViewportSize(viewport);
      for (const [name, address, ready] of pages) {
        await page.goto(address);
        await page.locator(ready).first().waitFor();
        t.deepEqual(await pageLayoutProblems(page, vela, `${name}-${width}.png`), [], `${name} at ${width}`);
      }
      const menu = page.locator('.nav-toggle');
      const nav = page.locator('.topbar nav');
      if (width !== 'desktop') {
        t.true(await nav.isHidden(), 'the navigation is folded away on a phone');
        await menu.click();
        t.is(await menu.getAttribute('aria-expanded'), 'true');
        await page.getByRole('link', { name: 'Mappings' }).click();
        await page.waitForURL(url('/console/mapping'));
        // The table is a card per mapping, each value beside its column's name.
        await page.locator('#mappings tbody tr').first().waitFor();
        t.true(await page.locator('#mappings thead').isHidden());
        const label = await page
          .locator('#mappings tbody td')
          .nth(1)
          .evaluate((td) => getComputedStyle(td, '::before').content);
        t.is(label, '"Context"');
      } else {
        t.true(await menu.isHidden(), 'no Menu button where the navigation has room');
        t.true(await nav.isVisible());
      }
    }
    const signInPage = await browser.newPage({ viewport: VIEWPORTS.phone });
    await signInPage.goto(url('/console/login'));
    t.deepEqual(await pageLayoutProblems(signInPage, vela, 'sign-in-phone.png'), []);
    await signInPage.close();
    await page.setViewportSize(VIEWPORTS.desktop);
  },
);

browserTest('a code used twice is refused on the receiver page, and the token it gave is revoked', async (t) => {
  await page.goto(codePageUrl);
  await page.fill('#client_id', credentials.apiKey);
  await page.fill('#client_secret', credentials.apiSecret);
  await page.getByRole('button', { name: 'Get access token' }).click();
  await page.waitForSelector('#error:not([hidden])');
  t.regex(await text('#error'), /invalid_grant/);
  t.true(await page.locator('#token-result').isHidden());
  // RFC 6749 §4.1.2: a replayed code may be a stolen one, so what it gave stops working.
  t.is((await proxied('/echo/api/items', codeToken)).status, 401);
  t.is((await proxied('/echo/api/items', implicitToken)).status, 200, 'other tokens of the app are untouched');
});

browserTest('revoking all access tokens stops every token of the app at the proxy', async (t) => {
  await page.goto(appKeysUrl);
  await page.waitForFunction((v) => document.getElementById('apiKey')?.textContent === v, credentials.apiKey);
  await page.getByRole('button', { name: 'Revoke all access tokens' }).click();
  await confirm('#confirm-button');
  await page.waitForSelector('text=All access tokens of this app were revoked.');
  for (const token of [implicitToken, credentials.accessToken])
    t.is((await proxied('/echo/api/items', token)).status, 401);
  t.is(await text('#accessToken'), '— (revoked)');
  await shot('app-keys-revoked');
});

browserTest("an app's details are edited on its Details tab, and the app is deleted", async (t) => {
  await page.getByRole('link', { name: 'Details' }).click();
  await page.waitForFunction(
    () => (document.getElementById('name') as HTMLInputElement | null)?.value === 'Console app',
  );
  t.is(await page.inputValue('#callbackUrls'), 'http://127.0.0.1:1/callback');
  await page.fill('#name', 'Console app, renamed');
  await page.fill('#callbackUrls', 'http://127.0.0.1:1/callback\nhttp://127.0.0.1:2/other');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForSelector('text=App saved.');
  t.is(await text('#app-name'), 'Console app, renamed');
  await shot('app-details');
  await page.reload();
  await page.waitForFunction(
    () => (document.getElementById('callbackUrls') as HTMLTextAreaElement | null)?.value.split('\n').length === 2,
  );
  await page.getByRole('button', { name: 'Delete app' }).click();
  await confirm('#confirm-button');
  await page.waitForURL(url('/console/app'));
  await page.waitForFunction(() => document.getElementById('apps-status')?.textContent?.startsWith('No apps yet'));
  t.is(await page.locator('#apps tbody tr').count(), 0);
});

browserTest('a page opened before the session changed asks to be reloaded instead of writing', async (t) => {
  await page.goto(url('/console/mapping'));
  await page.getByRole('link', { name: 'Edit /proxy/echo/api' }).click();
  await page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  // Signing in again (as in another tab) replaces the session cookie, and with it the CSRF token.
  const fresh = await signIn(vela);
  await page
    .context()
    .addCookies([{ name: 'vela_session', value: fresh.cookie.slice('vela_session='.length), url: url('/') }]);
  await page.click('#save');
  await page.waitForSelector('#error:not([hidden])');
  t.regex(await text('#error'), /out of date.*Reload the page/);
  await page.reload();
  await page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  await page.click('#save');
  await page.waitForSelector('text=Mapping saved.');
  t.true(await page.locator('#error').isHidden());
});

browserTest('a mapping is edited and deleted from its page', async (t) => {
  await page.goto(url('/console/mapping'));
  await page.getByRole('link', { name: 'Edit /proxy/echo/api' }).click();
  await page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo',
  );
  await page.fill('#description', 'Loopback echo, edited');
  await page.click('#save');
  await page.waitForSelector('text=Mapping saved.');
  await shot('mapping-edit');
  await page.reload();
  await page.waitForFunction(
    () => (document.getElementById('description') as HTMLTextAreaElement | null)?.value === 'Loopback echo, edited',
  );
  await page.click('#delete');
  await confirm('#confirm-button');
  await page.waitForURL(url('/console/mapping'));
  await page.waitForFunction(() => document.getElementById('mappings-status')?.textContent === '1 mapping');
  t.deepEqual(await page.locator('#mappings tbody tr td:nth-child(2)').allTextContents(), ['/proxy/down/api']);
  t.is(
    (await proxied('/echo/api/items', credentials.accessToken)).status,
    404,
    'the deleted mapping is gone from the proxy',
  );
});

browserTest('signing out ends the session: pages go back to sign-in', async (t) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/console\/login$/);
  await page.goto(url('/console/app'));
  await page.waitForURL(/\/console\/login\?next=%2Fconsole%2Fapp$/);
  t.is(await page.locator('.topbar .user').count(), 0);
});

browserTest('no page script failed on any page of the run', (t) => {
  t.deepEqual(pageErrors, []);
});
