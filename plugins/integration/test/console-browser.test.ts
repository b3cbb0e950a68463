import test from 'ava';
import { browserSuite, startTestRuntime } from 'vela/testing';
import { searchConsolePage } from '../../search/test/console-page.js';
import { json } from '../../search/test/fixtures.js';

// The Integrations page of the search console, this plugin's page, in a browser.

const ui = browserSuite(test, () => startTestRuntime({ plugins: ['integration'] }));

const { url, text, shot, signIn, onPhone } = searchConsolePage(ui);

ui.test('plugin pages are offered only when their API is served', async (t) => {
  const { page, vela } = ui;
  await signIn();
  const doc = (await json(vela, 'GET', '/v3/api-docs')).body;
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(200);
  for (const [label, path] of [
    ['Integrations', '/api/integration'],
    ['LLM', '/api/llm'],
  ]) {
    const visible = await page.locator('.topbar nav a', { hasText: label }).isVisible();
    t.is(visible, path! in doc.paths, label);
  }
  await page.getByRole('link', { name: 'Integrations' }).click();
  await page.waitForURL(url('/console/integrations'));
  // The page's script takes the button's clicks once the vendors are in the form: on a loaded machine a click
  // before that opens nothing.
  await page.waitForFunction(
    () => (document.querySelector('#integration-form [name=vendor]') as HTMLSelectElement | null)?.options.length,
  );
  await page.click('#add-integration');
  await page.fill('#integration-title', 'Connector');
  await page.fill('#integration-endpoint', 'https://connector.example.org');
  await page.click('#integration-save');
  await page.waitForSelector('#integrations tbody tr');
  t.is(await text('#integrations tbody tr td:first-child'), 'Connector');
  await shot('integrations');
});

ui.test('on a phone the Integrations page fits and the navigation folds behind the menu', async (t) => {
  t.deepEqual(await onPhone('/console/integrations', 'search-phone-integrations.png'), {
    problems: [],
    navigationFolded: true,
  });
});

ui.test('no page script failed on any page of the run', (t) => {
  t.deepEqual(ui.pageErrors, []);
});
