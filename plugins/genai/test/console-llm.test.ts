import test from 'ava';
import { browserSuite, startTestRuntime } from 'vela/testing';
import { searchConsolePage } from '../../search/test/console-page.js';
import { json } from './fixtures.js';

// The LLM page this plugin adds to the search service's console, against its API (/api/llm).
const ui = browserSuite(test, () => startTestRuntime({ plugins: ['search', 'genai'] }));

ui.test(
  'with the genai plugin, the LLM page is offered and creates, edits and deletes an instance through /api/llm',
  async (t) => {
    await searchConsolePage(ui).signIn();
    await ui.page.getByRole('link', { name: 'LLM' }).click();
    await ui.page.waitForURL(/\/console\/llm$/);
    await ui.page.waitForFunction(() => /instance/.test(document.getElementById('llms-status')?.textContent ?? ''));
    const before = ((await json(ui.vela, 'GET', '/api/llm')).body as unknown[]).length;

    await ui.page.click('#add-llm');
    await ui.page.fill('#llm-title', 'Team model');
    const vendors = await ui.page
      .locator('#llm-vendor option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    t.true(vendors.length > 0);
    if (vendors.includes('OPENAI_COMPATIBLE')) await ui.page.selectOption('#llm-vendor', 'OPENAI_COMPATIBLE');
    await ui.page.fill('#llm-url', 'https://llm.example.org/v1');
    await ui.page.fill('#llm-modelName', 'model-x');
    await ui.page.fill('#llm-apiKey', 'sk-test-secret-9876');
    t.is(await ui.page.inputValue('#llm-embeddingBatchSize'), '64', 'a new instance shows the defaults');
    t.is(await ui.page.inputValue('#llm-embeddingMaxChars'), '200000');
    await ui.page.fill('#llm-embeddingModel', 'embed-<b>x</b>');
    await ui.page.fill('#llm-embeddingBatchSize', '16');
    await ui.page.click('#llm-save');
    const row = ui.page.locator('#llms tbody tr', { hasText: 'Team model' });
    await row.waitFor();
    t.is(await row.locator('td').nth(3).textContent(), 'embed-<b>x</b>', 'the embedding model, as text');
    t.regex((await row.locator('td').nth(4).textContent()) ?? '', /9876/, 'the key shows as its hint only');
    const stored = async (title: string) =>
      ((await json(ui.vela, 'GET', '/api/llm')).body as Array<Record<string, unknown>>).find((i) => i.title === title);
    t.like(await stored('Team model'), {
      modelName: 'model-x',
      hasApiKey: true,
      embeddingModel: 'embed-<b>x</b>',
      embeddingBatchSize: 16,
      embeddingMaxChars: 200_000,
    });

    await ui.page.getByRole('button', { name: 'Edit Team model' }).click();
    t.is(await ui.page.inputValue('#llm-apiKey'), '', 'the stored key is never sent back');
    t.is(await ui.page.inputValue('#llm-embeddingModel'), 'embed-<b>x</b>');
    t.is(await ui.page.inputValue('#llm-embeddingBatchSize'), '16');
    await ui.page.fill('#llm-title', 'Team model, renamed');
    await ui.page.fill('#llm-embeddingModel', 'nomic-embed-text');
    await ui.page.fill('#llm-embeddingMaxChars', '50000');
    await ui.page.click('#llm-save');
    await ui.page.locator('#llms tbody tr', { hasText: 'Team model, renamed' }).waitFor();
    t.like(await stored('Team model, renamed'), {
      hasApiKey: true,
      embeddingModel: 'nomic-embed-text',
      embeddingBatchSize: 16,
      embeddingMaxChars: 50_000,
    });

    await ui.page.getByRole('button', { name: 'Edit Team model, renamed' }).click();
    await ui.page.fill('#llm-embeddingModel', '');
    await ui.page.fill('#llm-embeddingMaxChars', '10');
    await ui.page.click('#llm-save');
    await ui.page.locator('#llm-error:not([hidden])').waitFor();
    t.regex((await ui.page.textContent('#llm-error')) ?? '', /embeddingMaxChars/, 'a value out of bounds is refused');
    t.is(await ui.page.getAttribute('#llm-embeddingMaxChars', 'aria-invalid'), 'true');
    await ui.page.fill('#llm-embeddingMaxChars', '50000');
    await ui.page.click('#llm-save');
    await ui.page.waitForFunction(() => !document.querySelector('#llm-dialog')?.hasAttribute('open'));
    t.like(await stored('Team model, renamed'), { embeddingModel: null }, 'an empty embedding model offers none');

    await ui.page.getByRole('button', { name: 'Delete Team model, renamed' }).click();
    await ui.page.locator('dialog[open]').waitFor();
    await ui.page.click('#confirm-button');
    await ui.page.waitForFunction((n) => document.querySelectorAll('#llms tbody tr').length === n, before);
    t.false(await ui.page.locator('#usage-card').isHidden(), 'token usage is shown when the service reports it');
    t.deepEqual(ui.pageErrors, []);
  },
);

ui.test(
  'at 390 px wide the LLM page does not overflow, its dialog included, and its table becomes cards',
  async (t) => {
    const created = await json(ui.vela, 'POST', '/api/llm', {
      title: 'A model with a rather long title to wrap',
      vendor: 'OPENAI_COMPATIBLE',
      url: 'https://llm.example.org/v1/a/long/path/to/the/endpoint',
      modelName: 'model-with-a-long-name-x',
      apiKey: 'sk-test-secret-1234',
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    await ui.page.setViewportSize({ width: 390, height: 844 });
    await ui.page.goto(ui.vela.url('search', '/console/llm'));
    await ui.page.waitForLoadState('networkidle');
    await ui.page.locator('#llms tbody tr').first().waitFor();
    const overflow = () =>
      ui.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.true((await overflow()) <= 0, `the page overflows by ${await overflow()} px`);
    t.true(await ui.page.locator('.topbar nav').isHidden(), 'the navigation is behind the menu');
    t.true(await ui.page.locator('#llms thead').isHidden(), 'the table is a list of cards');
    await ui.page.click('#add-llm');
    await ui.page.locator('dialog[open]').waitFor();
    t.true((await overflow()) <= 0, `with the dialog open the page overflows by ${await overflow()} px`);
    const dialogWidth = await ui.page.locator('dialog[open]').evaluate((d) => d.getBoundingClientRect().right);
    t.true(dialogWidth <= 390, `the dialog ends at ${dialogWidth} px`);
    t.deepEqual(ui.pageErrors, []);
  },
);
