import path from 'node:path';
import test from 'ava';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  browserAvailable,
  CHROMIUM,
  CHROMIUM_ARGS,
  layoutProblems,
  pageLayout,
  screenshotDir,
  VIEWPORTS,
} from '../../runtime/testing/browser.js';
import { startTestRuntime, TEST_ADMIN, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// Swagger UI on each service, driven as a user would: load it, authorize, try a call.
const browserTest = browserAvailable() ? test.serial : test.skip;
const SERVICES = ['gateway', 'search', 'connector'] as const;
let vela: TestRuntime;
let browser: Browser;
let shots: string;

test.before(async () => {
  if (!browserAvailable()) return;
  vela = await startTestRuntime();
  shots = screenshotDir(path.join(vela.dataDir, 'screenshots'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.after.always(async () => {
  await browser?.close();
  await vela?.stop();
});

/** A page on a fresh context, recording what the browser's console reports as errors and which URLs it asked for. */
async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[]; requested: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  return { page, errors, requested };
}

async function openSwaggerUi(page: Page, service: string): Promise<void> {
  await page.goto(vela.url(service, '/swagger-ui.html'));
  await page.locator('.opblock').first().waitFor();
}

/** The operation block of one route, expanded as it opens (for reading), without its Execute button. */
async function expand(page: Page, method: string, route: string) {
  const block = page
    .locator(`.opblock-${method}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${route}"]`) });
  await block.locator('.opblock-summary').first().click();
  await block.locator('.btn.try-out__btn').waitFor();
  return block;
}

/** The operation block of one route, expanded, with "Try it out" turned on so its Execute button is there. */
async function operation(page: Page, method: string, route: string) {
  const block = await expand(page, method, route);
  await block.locator('.btn.try-out__btn').click();
  await block.locator('.btn.execute').waitFor();
  return block;
}

// The bundle is over a megabyte of script for the browser to run: on a busy machine a load takes seconds.
const PATIENCE = 240_000;

browserTest(
  'Swagger UI loads on every service without an error in the console, and fits a phone and a laptop',
  async (t) => {
    t.timeout(PATIENCE);
    type Try = [keyof typeof VIEWPORTS, (typeof SERVICES)[number]];
    const tries: Try[] = [...SERVICES.map((s): Try => ['phone', s]), ['desktop', 'search']];
    for (const [width, service] of tries) {
      const viewport = VIEWPORTS[width];
      const context = await browser.newContext({ viewport });
      const { page, errors, requested } = await openPage(context);
      await openSwaggerUi(page, service);
      t.deepEqual(errors, [], `${service} at ${width}`);
      t.false(requested.includes('/api/login'), 'nobody signed in, so no session is asked for');
      t.deepEqual(
        layoutProblems(await pageLayout(page, path.join(shots, `swagger-ui-${service}-${width}.png`))),
        [],
        `${service} at ${width}`,
      );
      await context.close();
    }
  },
);

browserTest(
  'an operation opens for reading: "Try it out" is offered, not already on, and one click turns it on',
  async (t) => {
    t.timeout(PATIENCE);
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const { page, errors } = await openPage(context);
    await openSwaggerUi(page, 'search');
    const block = await expand(page, 'get', '/api/sn');
    t.is((await block.locator('.btn.try-out__btn').textContent())?.trim(), 'Try it out');
    t.is(await block.locator('.btn.execute').count(), 0, 'no Execute button before the reader asks to try');
    await block.locator('.btn.try-out__btn').click();
    await block.locator('.btn.execute').waitFor();
    t.is((await block.locator('.btn.try-out__btn').textContent())?.trim(), 'Cancel');
    t.deepEqual(errors, []);
    await context.close();
  },
);

browserTest('Authorize with Basic credentials, execute a call, and the 200 answer is shown', async (t) => {
  t.timeout(PATIENCE);
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const { page, errors } = await openPage(context);
  await openSwaggerUi(page, 'search');
  await page.locator('.btn.authorize').first().click();
  const basic = page.locator('.modal-ux .auth-container').filter({ hasText: 'Basic' });
  await basic.locator('input[type="text"]').fill(TEST_ADMIN.user);
  await basic.locator('input[type="password"]').fill(TEST_ADMIN.password);
  // Swagger UI labels its modal's buttons for screen readers ("Apply given credentials"): found by text.
  await basic.locator('button', { hasText: 'Authorize' }).click();
  await basic.locator('button', { hasText: 'Logout' }).waitFor();
  await page.locator('.modal-ux .btn-done').first().click();

  const block = await operation(page, 'get', '/api/sn');
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/sn');
  await block.locator('.btn.execute').click();
  t.is((await sent).headers().authorization, vela.adminAuth, 'the credentials went with the call');
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  t.is((await status.textContent())?.trim(), '200');
  t.regex(
    (await block.locator('.live-responses-table .microlight').first().textContent()) ?? '',
    /^\[/,
    'the answer, a list of sites, is shown',
  );
  await page.screenshot({ path: path.join(shots, 'swagger-ui-executed.png') });
  t.deepEqual(errors, []);
  await context.close();
});

browserTest("signed in to the console, a write tried without Authorize carries the session's CSRF token", async (t) => {
  t.timeout(PATIENCE);
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const { page, errors, requested } = await openPage(context);
  await page.goto(vela.url('search', '/console/login'));
  await page.fill('#username', TEST_ADMIN.user);
  await page.fill('#password', TEST_ADMIN.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/console\/(?!login)/);

  await openSwaggerUi(page, 'search');
  t.false(requested.includes('/api/login'), 'the token is asked for only when a write needs it');
  const block = await operation(page, 'post', '/api/sn');
  await block.locator('textarea.body-param__text').fill(JSON.stringify({ name: 'FromSwagger' }));
  const sent = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/api/sn' && request.method() === 'POST',
  );
  await block.locator('.btn.execute').click();
  t.truthy((await sent).headers()['x-csrf-token']);
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  t.is((await status.textContent())?.trim(), '201');
  t.deepEqual(errors, []);
  await context.close();
});
