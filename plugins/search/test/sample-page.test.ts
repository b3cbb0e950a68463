import test from 'ava';
import { chromium, type Browser } from 'playwright-core';
import { browserAvailable, CHROMIUM, CHROMIUM_ARGS } from '../../../runtime/testing/browser.js';
import { startTestRuntime, type TestRuntime } from '../../../runtime/testing/test-runtime.js';
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

browserTest('the sample page renders results, facets, pagination and locales, and follows the response\'s links', async (t) => {
  const page = await browser.newPage();
  const apiCalls: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) apiCalls.push(new URL(r.url()).pathname + new URL(r.url()).search); });
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

  t.true(apiCalls.every((c) => c.startsWith('/api/sn/Sample/search?')), `the page only called the search API: ${apiCalls.join(', ')}`);
  await page.screenshot({ path: `${vela.dataDir}/sample-page.png` });
  await page.close();
});
