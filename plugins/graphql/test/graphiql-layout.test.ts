import test from 'ava';
import type { Page } from 'playwright-core';
import { browserSuite, pageLayoutProblems, startTestRuntime, VIEWPORTS } from 'vela/testing';
import { createSite, importDocs, makeDocs } from '../../search/test/fixtures.js';

// GraphiQL in a real browser, on a laptop and on a phone: the query and its result must both be readable.
const ui = browserSuite(test, async () => {
  const vela = await startTestRuntime({ plugins: ['search', 'graphql'] });
  await createSite(vela, 'Sample');
  await importDocs(vela, makeDocs(5));
  return vela;
});

/** Open GraphiQL, run its first query, and measure the editor and the result pane once the answer is shown. */
async function runFirstQuery(page: Page) {
  await page.goto(ui.vela.url('search', '/graphql'));
  await page.waitForSelector('.graphiql-container');
  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('Sample'));
  // No named functions inside: tsx would wrap them in a helper that exists only in Node, not in the page.
  return page.evaluate(() => {
    const [query, result] = ['.graphiql-query-editor', '.graphiql-response'].map((selector) =>
      document.querySelector(selector)!.getBoundingClientRect(),
    );
    const line = [...document.querySelectorAll('.result-window .CodeMirror-line')].find((l) =>
      l.textContent?.includes('"siteNames"'),
    );
    return {
      query: { width: query!.width, height: query!.height, top: query!.top },
      result: { width: result!.width, height: result!.height, top: result!.top },
      lineHeight: line ? line.getBoundingClientRect().height : 0,
      fontLine: line ? Number.parseFloat(getComputedStyle(line).lineHeight) || 20 : 0,
    };
  });
}

ui.test(
  'GraphiQL on a 390 px phone: the query editor and the result pane are each as wide as the screen allows, one above the other',
  async (t) => {
    const page = await ui.browser.newPage({ viewport: VIEWPORTS.phone });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const size = await runFirstQuery(page);
    t.log(JSON.stringify(size));
    t.true(size.result.width >= 300, `the result pane is ${size.result.width} px wide on a 390 px screen`);
    t.true(size.query.width >= 300, `the query editor is ${size.query.width} px wide on a 390 px screen`);
    t.true(size.result.height >= 150, `the result pane is ${size.result.height} px high`);
    t.true(size.result.top >= size.query.top + size.query.height - 1, 'the result is below the query');
    t.true(
      size.lineHeight > 0 && size.lineHeight < 2 * size.fontLine,
      `the answer's line "siteNames": [ is one line, not wrapped (${size.lineHeight} px high)`,
    );
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'graphiql-phone.png'), []);
    t.deepEqual(errors, []);
    await page.close();
  },
);

ui.test('GraphiQL on a laptop keeps the query and the result side by side', async (t) => {
  const page = await ui.browser.newPage({ viewport: VIEWPORTS.desktop });
  const size = await runFirstQuery(page);
  t.true(size.result.width >= 400, `the result pane is ${size.result.width} px wide`);
  t.true(Math.abs(size.result.top - size.query.top) < 80, 'side by side');
  t.deepEqual(await pageLayoutProblems(page, ui.vela, 'graphiql-desktop.png'), []);
  await page.close();
});
