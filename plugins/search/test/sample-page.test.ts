import test from 'ava';
import { type Browser, chromium } from 'playwright-core';
import { browserAvailable, CHROMIUM, CHROMIUM_ARGS, startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, makeDocs } from './fixtures.js';

const browserTest = browserAvailable() ? test : test.skip;
let vela: TestRuntime;
let browser: Browser;
const docs = makeDocs(60);

test.before(async () => {
  if (!browserAvailable()) return;
  vela = await startTestRuntime({ plugins: ['search'] });
  await createSite(vela, 'Sample', { rowsPerPage: 10 });
  await importDocs(vela, docs);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.after.always(async () => {
  await browser?.close();
  await vela?.stop();
});

browserTest("the sample page renders results, facets, pagination and locales, and follows the response's links", async (t) => {
  const page = await browser.newPage();
  const apiCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) apiCalls.push(new URL(r.url()).pathname + new URL(r.url()).search);
  });
  await page.goto(vela.url('search', '/sn/Sample'));
  t.regex(page.url(), /\/sn\/Sample\?q=\*&_setlocale=en_US$/, 'a bare page URL starts from the match-all search');
  await page.waitForSelector('article');
  t.is(await page.locator('article').count(), 10);
  t.is(await page.locator('#summary').textContent(), '1–10 of 60 results');
  t.deepEqual(await page.locator('nav.locales a').allTextContents(), ['en_US', 'pt_BR']);
  const sections = await page.locator('section[data-facet="section"] li a').allTextContents();
  t.true(sections.length > 0);

  // Follow a facet value: the page shows what the response's link returns.
  const first = page.locator('section[data-facet="section"] li a').first();
  const label = (await first.locator('span').first().textContent())!;
  const expected = docs.filter((d) => d.section === label).length;
  await first.click();
  await page.waitForFunction((n) => document.querySelector('#summary')?.textContent?.endsWith(`of ${n} results`), expected);
  t.regex(page.url(), new RegExp(`fq\\[\\]=section:${label}`));
  t.deepEqual(await page.locator('.chip').allTextContents(), [`${label} ✕`, 'Clear all']);

  // Page 2 through the pagination links.
  await page.goto(vela.url('search', '/sn/Sample?q=*&_setlocale=en_US'));
  await page.waitForSelector('.pagination a');
  await page.locator('.pagination a', { hasText: 'Next' }).click();
  await page.waitForFunction(() => document.querySelector('#summary')?.textContent === '11–20 of 60 results');
  t.regex(page.url(), /p=2/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#summary')?.textContent === '1–10 of 60 results');

  // The search form, highlighting, and the locale switch.
  await page.fill('#q', 'editor');
  await page.press('#q', 'Enter');
  await page.waitForURL(/q=editor/);
  await page.waitForSelector('article mark');
  t.regex((await page.locator('article mark').first().textContent())!, /^editor$/i);
  await page.locator('nav.locales a', { hasText: 'pt_BR' }).click();
  await page.waitForFunction(() => document.querySelector('#summary')?.textContent === 'No results.');
  t.regex(page.url(), /_setlocale=pt_BR/);

  // Besides searches, the chat box asks once whether the site chats (404 here: no genai plugin, so it stays hidden).
  t.true(
    apiCalls.every((c) => c.startsWith('/api/sn/Sample/search?') || c.startsWith('/api/sn/Sample/chat?_setlocale=')),
    `the page only called the search API: ${apiCalls.join(', ')}`,
  );
  t.true(await page.locator('#chat').isHidden());
  await page.screenshot({ path: `${vela.dataDir}/sample-page.png` });
  await page.close();
});

browserTest('a stored javascript: or data: URL is never a link target, and no injected script runs under the page CSP', async (t) => {
  await createSite(vela, 'Hostile', { rowsPerPage: 20 });
  const hostile = [
    'javascript:window.__ran=1',
    'JaVaScRiPt:window.__ran=1',
    ' \tjava\nscript:window.__ran=1',
    'data:text/html,<script>window.__ran=1</script>',
    'vbscript:msgbox(1)',
  ];
  const fine = ['https://packages.example/ok', '/local/page', 'other/relative?x=1'];
  const base = makeDocs(hostile.length + fine.length, 11);
  const stored = [...hostile, ...fine].map((url, i) => ({ ...base[i]!, title: `entry ${i} <img src=x onerror="window.__ran=1">`, url }));
  await importDocs(vela, stored, 'Hostile');

  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const response = await page.goto(vela.url('search', '/sn/Hostile?q=*&_setlocale=en_US'));
  t.notRegex(response!.headers()['content-security-policy'] ?? '', /unsafe-inline/);
  await page.waitForSelector('article');
  t.is(await page.locator('article').count(), stored.length);

  const targets = await page.locator('article h3 a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  t.is(targets.length, fine.length, 'only the http(s) and relative URLs became links');
  t.true(
    targets.every((href) => /^https?:\/\//.test(href)),
    targets.join(', '),
  );
  t.is(await page.locator('article img').count(), 0, 'titles are text, not markup');

  // Clicking the titles that are not links runs nothing.
  for (const title of await page.locator('article h3').all()) {
    if ((await title.locator('a').count()) === 0) await title.click();
  }
  // Markup that reached the page some other way could not run either: inline handlers are refused by the CSP.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<img src="x" onerror="window.__ran=1"><a id="js" href="#">x</a>'));
  await page.evaluate(() => {
    const a = document.getElementById('js') as HTMLAnchorElement;
    a.setAttribute('onclick', 'window.__ran=1');
    a.click();
  });
  await page.waitForTimeout(200);
  t.is(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran), undefined);
  t.deepEqual(dialogs, []);
  await page.close();
});
