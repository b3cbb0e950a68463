import test from 'ava';
import { browserSuite, startTestRuntime } from 'vela/testing';
import { searchConsolePage } from '../../search/test/console-page.js';
import { createSite, importDocs, json, makeDocs } from '../../search/test/fixtures.js';

// A site's Metrics tab of the search console, this plugin's page, in a browser.

let siteId: string;

const ui = browserSuite(test, async () => {
  const vela = await startTestRuntime({
    plugins: ['search-metrics'],
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  });
  siteId = (await createSite(vela, 'Handbook')).id;
  return vela;
});

const { url, text, shot, signIn, onPhone } = searchConsolePage(ui);

ui.test('metrics: top and zero-result terms as SVG bars, and the latest searches', async (t) => {
  const { page, vela } = ui;
  await signIn();
  await importDocs(vela, makeDocs(30), 'Handbook');
  const search = (q: string, userId?: string) =>
    json(
      vela,
      'POST',
      '/api/sn/Handbook/search?_setlocale=en_US',
      { query: q, ...(userId ? { userId } : {}) },
      { authorization: '' },
    );
  for (const q of ['editor', 'editor', 'editor', 'audio', 'audio', 'qqqzz', 'qqqzz', 'nothing-at-all'])
    await search(q, 'ana');
  await page.goto(url(`/console/sites/${siteId}/metrics`));
  await page.waitForSelector('#top-chart svg g.term');
  await page
    .getByRole('navigation', { name: 'Site' })
    .getByRole('link', { name: 'Metrics' })
    .waitFor({ state: 'visible' });
  const bars = (selector: string) =>
    page
      .locator(`${selector} svg g.term`)
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-term'), Number(n.getAttribute('data-count'))]));
  t.deepEqual(await bars('#top-chart'), [
    ['editor', 3],
    ['qqqzz', 2],
    ['audio', 2],
    ['nothing-at-all', 1],
  ]);
  t.deepEqual(await bars('#zero-chart'), [
    ['qqqzz', 2],
    ['nothing-at-all', 1],
  ]);
  t.is(await text('#stat-today'), '8');
  t.is(await text('#stat-zero'), '3');
  t.is(await page.locator('#latest tbody tr').count(), 8);
  t.is(await text('#latest tbody tr:first-child td:first-child'), 'nothing-at-all');
  t.regex(await text('#period-summary'), /^8 searches since/);
  await page.selectOption('#period', 'all-time');
  await page.waitForFunction(() => document.getElementById('period-summary')?.textContent?.includes('all time'));
  await shot('site-metrics');
});

ui.test('on a phone the metrics page fits and the navigation folds behind the menu', async (t) => {
  t.deepEqual(await onPhone(`/console/sites/${siteId}/metrics`, 'search-phone-site-metrics.png'), {
    problems: [],
    navigationFolded: true,
  });
});

ui.test('no page script failed on any page of the run', (t) => {
  t.deepEqual(ui.pageErrors, []);
});
