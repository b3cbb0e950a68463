import test from 'ava';
import { browserSuite, startTestRuntime } from 'vela/testing';
import { searchConsolePage } from '../../search/test/console-page.js';
import { call, createToolbox, toolboxDocuments } from './toolbox.js';

// A site's Semantic tab of the search console, this plugin's page, in a browser: settings, progress, and the three
// searches side by side.

let siteId: string;
const DOCUMENTS = toolboxDocuments().length;

const ui = browserSuite(test, async () => {
  const vela = await startTestRuntime({
    plugins: ['search', 'semantic'],
    config: { plugins: { semantic: { pollMs: 50 } } },
  });
  await createToolbox(vela);
  siteId = (await call(vela, 'GET', '/api/sn/Toolbox')).body.id;
  return vela;
});

const { url, text, shot, signIn, onPhone } = searchConsolePage(ui);
const settings = async () => (await call(ui.vela, 'GET', '/api/sn/Toolbox/semantic')).body;

ui.test(
  'the Semantic tab shows the settings and the progress: every document embedded, the locale ready',
  async (t) => {
    const { page } = ui;
    await signIn();
    await page.goto(url(`/console/sites/${siteId}/semantic`));
    await page
      .getByRole('navigation', { name: 'Site' })
      .getByRole('link', { name: 'Semantic' })
      .waitFor({ state: 'visible' });
    await page.waitForSelector('body[data-loaded="true"]');
    t.true(await page.isChecked('#enabled'));
    t.is(await page.inputValue('#embedder'), 'builtin');
    t.deepEqual(
      await page
        .locator('#embedder option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      ['builtin'],
      'without the genai plugin the built-in embedder is the only one',
    );
    t.is(await page.inputValue('#passageChars'), '1000');
    t.is(await page.inputValue('#rrfK'), '60');

    const active = page.locator('#models tbody tr[data-active="true"]');
    await active.waitFor();
    t.is(await active.locator('td[data-label="Done"]').textContent(), String(DOCUMENTS));
    t.is(await active.locator('td[data-label="Pending"]').textContent(), '0');
    t.is(await active.locator('td[data-label="Failed"]').textContent(), '0');
    const locale = page.locator('#locales tbody tr[data-locale="en_US"]');
    t.is(await locale.locator('td[data-label="Ready"]').textContent(), 'Yes');
    t.is(await locale.locator('td[data-label="Model"]').textContent(), await active.getAttribute('data-model'));
    t.is(await text('#progress-summary'), 'Every document is embedded.');
    t.is(await text('#failures-status'), 'No document failed.');

    await page.click('#embed-again');
    await page.locator('#saved:not([hidden])').waitFor();
    t.regex(await text('#saved'), /looked at again/);
    await page.waitForFunction(
      (n) => document.querySelector('#models tr[data-active="true"] td[data-label="Done"]')?.textContent === String(n),
      DOCUMENTS,
    );
    await shot('site-semantic');
  },
);

ui.test('a setting saved through the form is kept; a bad value is shown on its field', async (t) => {
  const { page } = ui;
  await page.fill('#rrfK', '30');
  await page.click('#save');
  await page.locator('#saved:not([hidden])').waitFor();
  t.like(await settings(), { rrfK: 30, custom: true, enabled: true, embedder: 'builtin', passageChars: 1000 });
  t.regex(await text('#settings-state'), /own settings/);

  await page.fill('#passageChars', '200');
  await page.fill('#passageOverlap', '150');
  await page.click('#save');
  await page.locator('#error:not([hidden])').waitFor();
  t.regex(await text('#error'), /passageOverlap.*half of passageChars/);
  t.is(await page.getAttribute('#passageOverlap', 'aria-invalid'), 'true');
  t.like(await settings(), { passageChars: 1000, passageOverlap: 100 }, 'nothing of the refused change is kept');

  await page.fill('#passageChars', '1000');
  await page.fill('#passageOverlap', '100');
  await page.click('#save');
  await page.locator('#saved:not([hidden])').waitFor();
  t.is(await page.getAttribute('#passageOverlap', 'aria-invalid'), null);
});

ui.test('one query searched by keyword, hybrid and vector, side by side', async (t) => {
  const { page } = ui;
  const compare = async (q: string) => {
    await page.fill('#compare-q', q);
    await page.click('#compare');
    await page.waitForSelector(`body[data-compared="${q}"]`);
  };
  const ids = (mode: string) =>
    page.locator(`#${mode}-results li`).evaluateAll((items) => items.map((li) => li.getAttribute('data-id')));
  await compare('emacs');
  t.true((await ids('keyword')).length > 0, 'the keyword search finds the documents that say emacs');
  for (const mode of ['keyword', 'hybrid', 'vector']) t.is((await ids(mode)).length, 10, `${mode}: ten rows`);
  t.true(
    (await ids('vector')).every((id) => id!.startsWith('editor-') || id === 'vim'),
    'the nearest documents by meaning are editors (vim is one)',
  );
  t.regex(await text('#keyword-mode'), /^Ran keyword: \d+ results?\.$/);
  t.regex(
    await text('#hybrid-mode'),
    /^Ran hybrid \(k 30, 100 per side\): \d+ results\.$/,
    'the saved fusion constant',
  );
  t.regex(await text('#vector-mode'), /^Ran vector: \d+ results?\.$/);
  t.is(await page.getAttribute('[data-mode="vector"]', 'data-ran'), 'vector');

  // vim never says "emacs": the keyword search cannot find it, the vector search finds it among the rest by meaning.
  await page.selectOption('#compare-rows', '50');
  await compare('emacs');
  t.false((await ids('keyword')).includes('vim'), 'not found by its words');
  t.true((await ids('vector')).includes('vim'), 'found by its meaning');
  t.is(
    await page.locator('#vector-results li[data-id="vim"] span').textContent(),
    'vim',
    "the result's title, as text",
  );
  await shot('site-semantic-compare');
});

ui.test('a site with semantic search off: the searches say they ran keyword, and why', async (t) => {
  const { page, vela } = ui;
  const plain = await call(vela, 'POST', '/api/sn', { name: 'Plain', locales: ['en_US'], defaultTitleField: 'title' });
  const imported = await call(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        siteNames: ['Plain'],
        attributes: { id: 'odd', title: '<img src=x> anything & more', text: 'anything', url: 'javascript:alert(1)' },
      },
    ],
  });
  t.is(imported.status, 200);
  await page.goto(url(`/console/sites/${plain.body.id}/semantic`));
  await page.waitForSelector('body[data-loaded="true"]');
  t.false(await page.isChecked('#enabled'));
  await page.waitForFunction(() => /off/.test(document.getElementById('progress-summary')?.textContent ?? ''));
  await page.fill('#compare-q', 'anything');
  await page.click('#compare');
  await page.waitForSelector('body[data-compared="anything"]');
  t.regex(await text('#vector-mode'), /^Ran keyword: .*off/);
  t.true(await page.locator('#vector-mode').evaluate((n) => n.classList.contains('fallback')));
  t.is(await page.getAttribute('[data-mode="vector"]', 'data-ran'), 'keyword');
  const odd = page.locator('#keyword-results li[data-id="odd"]');
  t.is(await odd.locator('span').textContent(), '<img src=x> anything & more', 'a title is text, its marks taken out');
  t.is(await odd.locator('a, img').count(), 0, 'no link to an address that is not http(s), no markup from data');
});

ui.test('on a phone the Semantic page fits and the navigation folds behind the menu', async (t) => {
  t.deepEqual(await onPhone(`/console/sites/${siteId}/semantic`, 'search-phone-site-semantic.png'), {
    problems: [],
    navigationFolded: true,
  });
});

ui.test('no page script failed on any page of the run', (t) => {
  t.deepEqual(ui.pageErrors, []);
});
