import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { type Browser, chromium } from 'playwright-core';
import {
  browserAvailable,
  CHROMIUM,
  CHROMIUM_ARGS,
  layoutProblems,
  pageLayout,
  screenshotDir,
  VIEWPORTS,
} from '../../runtime/testing/browser.js';
import { manifest, startTestRuntime, type TestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

// The 404 page a browser meets on a mistyped address, in a real browser: styled as the consoles are, on a
// service with a console (search) and on one whose plugins have none (the gateway, running a bare plugin).
const browserTest = browserAvailable() ? test.serial : test.skip;
let vela: TestRuntime;
let browser: Browser;
let shots: string;

test.before(async () => {
  if (!browserAvailable()) return;
  const bare = await writePlugins([
    { manifest: manifest('bare', { service: 'gateway' }), files: { 'index.ts': 'export default { register() {} };' } },
  ]);
  vela = await startTestRuntime({
    loaderPath: [fileURLToPath(new URL('../../plugins', import.meta.url)), bare],
    plugins: ['search', 'bare'],
  });
  shots = screenshotDir(path.join(vela.dataDir, 'screenshots'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.after.always(async () => {
  await browser?.close();
  await vela?.stop();
});

for (const service of ['search', 'gateway'] as const) {
  browserTest(
    `${service}: the 404 page has the consoles' look (their stylesheet, sans-serif type, top bar, card) and fits a phone and a laptop`,
    async (t) => {
      for (const width of ['phone', 'desktop'] as const) {
        const page = await browser.newPage({ viewport: VIEWPORTS[width] });
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error' && !/status of 404/.test(message.text())) errors.push(message.text());
        });
        page.on('pageerror', (error) => errors.push(error.message));
        const response = await page.goto(vela.url(service, '/no/such<page>'));
        t.is(response!.status(), 404);
        // No named functions inside: tsx would wrap them in a helper that exists only in Node, not in the page.
        const look = await page.evaluate(() => {
          const [body, topbar, card] = ['body', '.topbar', 'main .card'].map((selector) =>
            getComputedStyle(document.querySelector(selector)!),
          );
          return {
            sheets: document.styleSheets.length,
            rules: [...document.styleSheets].reduce((n, sheet) => n + sheet.cssRules.length, 0),
            font: body!.fontFamily,
            background: body!.backgroundColor,
            topbar: topbar!.backgroundColor,
            card: card!.backgroundColor,
            cardRadius: card!.borderTopLeftRadius,
            brand: document.querySelector('.topbar .brand')?.textContent ?? '',
            code: document.querySelector('main code')?.textContent ?? '',
          };
        });
        t.is(look.sheets, 1, `${service} at ${width}`);
        t.true(look.rules > 100, 'the stylesheet loaded (the CSP allowed it) and is the consoles');
        t.regex(look.font, /^system-ui/, 'the consoles type, not the browsers default serif');
        t.is(look.background, 'rgb(246, 247, 249)');
        t.is(look.topbar, 'rgb(17, 24, 39)');
        t.is(look.card, 'rgb(255, 255, 255)');
        t.is(look.cardRadius, '10px');
        t.is(look.brand, `Vela ${service}`);
        t.is(look.code, '/no/such%3Cpage%3E', 'the path is shown as text');
        t.deepEqual(errors, [], `${service} at ${width}: nothing refused by the page's policy`);
        t.deepEqual(
          layoutProblems(await pageLayout(page, path.join(shots, `not-found-${service}-${width}.png`))),
          [],
          `${service} at ${width}`,
        );
        await page.close();
      }
    },
  );
}

browserTest('the stylesheet the 404 page loads is a stylesheet on every service, not a page', async (t) => {
  for (const service of ['search', 'gateway']) {
    const response = await vela.fetch(service, '/console/assets/console.css');
    t.is(response.status, 200, service);
    t.regex(response.headers.get('content-type') ?? '', /^text\/css/, service);
  }
});
