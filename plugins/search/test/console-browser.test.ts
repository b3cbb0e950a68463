import test from 'ava';
import { browserSuite, startTestRuntime, submitConsoleSignIn } from 'vela/testing';
import { searchConsolePage } from './console-page.js';
import { json } from './fixtures.js';

let siteId: string;

// The search plugin's own pages; the Integrations, LLM and Metrics pages are tested with their plugins
// (plugins/integration, genai and search-metrics, test/console-browser.test.ts and console-llm.test.ts).
const ui = browserSuite(test, () => startTestRuntime({ plugins: ['search'] }));

const { url, text, shot } = searchConsolePage(ui);
const apiGet = async (path: string) => (await json(ui.vela, 'GET', path)).body;

ui.test('a browser that is not signed in gets the sign-in page, then the page it asked for', async (t) => {
  await ui.page.goto(url('/'));
  await ui.page.waitForURL(/\/console\/login\?next=%2Fconsole%2Fsites$/);
  t.is(await ui.page.title(), 'Sign in · Vela Search');
  await shot('sign-in');
  await submitConsoleSignIn(ui.page, 'not the password');
  await ui.page.waitForSelector('text=The user name or password is not right.');
  await submitConsoleSignIn(ui.page);
  await ui.page.waitForURL(url('/console/sites'));
  await ui.page.waitForFunction(() => document.getElementById('sites-status')?.textContent?.startsWith('No sites yet'));
  t.is(await text('.topbar .user'), 'admin');
});

ui.test('a site is created from the form, its switches and settings saved through the API', async (t) => {
  await ui.page.getByRole('link', { name: 'New site' }).click();
  await ui.page.waitForURL(url('/console/sites/new'));
  await ui.page.fill('#name', 'bad/name');
  await ui.page.click('#save');
  await ui.page.waitForSelector('#error:not([hidden])');
  t.is(await ui.page.getAttribute('#name', 'aria-invalid'), 'true', 'the member the API named is marked');
  await ui.page.fill('#name', 'Handbook');
  await ui.page.fill('#description', 'Product handbook');
  await ui.page.fill('#locales', 'en_US, pt_BR');
  await shot('site-new');
  await ui.page.click('#save');
  await ui.page.waitForURL(/\/console\/sites\/(?!new$)[\w-]+$/);
  siteId = ui.page.url().split('/').pop()!;
  await ui.page.waitForFunction(() => document.body.dataset.loaded === 'true');
  t.is(await text('#site-name'), 'Handbook');
  t.is(await ui.page.inputValue('#description'), 'Product handbook');
  t.true(await ui.page.isChecked('input[name="facet"]'));
  t.false(await ui.page.isChecked('input[name="mlt"]'));
  t.is(await ui.page.inputValue('#defaultTitleField'), 'title');

  await ui.page.check('input[name="mlt"]');
  await ui.page.check('input[name="spotlightWithResults"]');
  await ui.page.uncheck('input[name="wildcardNoResults"]');
  await ui.page.fill('#rowsPerPage', '5');
  t.is(await ui.page.inputValue('#bm25K1'), '1.2');
  await ui.page.fill('#bm25B', '0.5');
  await ui.page.selectOption('#facetItemType', 'OR');
  t.is(await ui.page.inputValue('#metadataFormat'), 'grouped');
  await ui.page.selectOption('#metadataFormat', 'flat');
  await ui.page.selectOption('#defaultDescriptionField', 'text');
  await ui.page.click('#save');
  await ui.page.waitForSelector('text=Site saved.');
  await shot('site-settings');
  const site = await apiGet(`/api/sn/${siteId}`);
  t.like(site, {
    mlt: true,
    spotlightWithResults: true,
    wildcardNoResults: false,
    rowsPerPage: 5,
    bm25K1: 1.2,
    bm25B: 0.5,
    facetItemType: 'OR',
    metadataFormat: 'flat',
    defaultDescriptionField: 'text',
  });
  t.deepEqual(site.locales, ['en_US', 'pt_BR']);

  await ui.page.getByRole('link', { name: 'Sites', exact: true }).click();
  await ui.page.waitForSelector('#sites tbody tr');
  t.is(await text('#sites tbody tr td:first-child'), 'Handbook');
  t.is(await text('#sites tbody tr td:nth-child(2)'), 'en_US, pt_BR');
  await shot('site-list');
});

ui.test(
  'fields: a facet and a secondary facet are switched on in the table, a field is added and edited in the dialog',
  async (t) => {
    await ui.page.goto(url(`/console/sites/${siteId}/fields`));
    const typeRow = ui.page.locator('#fields tbody tr[data-field="type"]');
    await typeRow.waitFor();
    t.true(await typeRow.locator('input[data-member="secondaryFacet"]').isDisabled(), 'secondary waits for facet');
    await typeRow.locator('input[data-member="facet"]').check();
    await ui.page.waitForFunction(
      () =>
        !(document.querySelector('tr[data-field="type"] input[data-member="secondaryFacet"]') as HTMLInputElement)
          .disabled,
    );
    await ui.page.locator('#fields tbody tr[data-field="type"] input[data-member="secondaryFacet"]').check();
    // Saved and drawn again: the new checkbox is ticked and enabled.
    await ui.page.waitForFunction(() => {
      const input = document.querySelector(
        'tr[data-field="type"] input[data-member="secondaryFacet"]',
      ) as HTMLInputElement;
      return input.checked && !input.disabled;
    });
    let fields = (await apiGet(`/api/sn/${siteId}/field`)) as Array<{
      name: string;
      facet: boolean;
      secondaryFacet: boolean;
      facetLabels: object;
    }>;
    t.like(
      fields.find((f) => f.name === 'type'),
      { facet: true, secondaryFacet: true },
    );

    await ui.page.click('#add-field');
    await ui.page.fill('#field-name', 'tags');
    await ui.page.check('#field-form input[name="multiValued"]');
    await ui.page.check('#field-form input[name="facet"]');
    await ui.page.fill('#field-facetName', 'Tags');
    await ui.page.fill('#field-facetPosition', '2');
    await ui.page.fill('#field-facetLabels', 'pt_BR = Etiquetas');
    await shot('field-dialog');
    await ui.page.click('#field-save');
    await ui.page.locator('#fields tbody tr[data-field="tags"]').waitFor();
    fields = await apiGet(`/api/sn/${siteId}/field`);
    t.like(
      fields.find((f) => f.name === 'tags'),
      { facet: true, multiValued: true, facetName: 'Tags', facetPosition: 2, facetLabels: { pt_BR: 'Etiquetas' } },
    );
    await ui.page.getByRole('button', { name: 'Edit tags' }).click();
    t.is(await ui.page.inputValue('#field-facetLabels'), 'pt_BR = Etiquetas');
    await ui.page.fill('#field-facetName', 'Labels');
    await ui.page.click('#field-save');
    await ui.page.waitForFunction(
      () => document.querySelector('tr[data-field="tags"] td:nth-child(5)')?.textContent === 'Labels',
    );
    // A refused write is shown in the dialog, the member marked.
    await ui.page.getByRole('button', { name: 'Edit tags' }).click();
    await ui.page.fill('#field-name', 'title');
    await ui.page.click('#field-save');
    await ui.page.waitForSelector('#field-error:not([hidden])');
    t.regex(await text('#field-error'), /already has a field named "title"/);
    await ui.page.click('#field-cancel');
    await shot('site-fields');
  },
);

ui.test('locales: one is added and one removed', async (t) => {
  await ui.page.goto(url(`/console/sites/${siteId}/locales`));
  await ui.page.waitForSelector('#locales tbody tr[data-locale="pt_BR"]');
  await ui.page.fill('#locale', 'es_ES');
  await ui.page.click('#add-locale');
  await ui.page.waitForSelector('#locales tbody tr[data-locale="es_ES"]');
  await ui.page.getByRole('button', { name: 'Remove pt_BR' }).click();
  await ui.page.locator('dialog[open]').waitFor();
  await ui.page.click('#confirm-button');
  await ui.page.waitForSelector('text=pt_BR removed.');
  t.deepEqual((await apiGet(`/api/sn/${siteId}`)).locales, ['en_US', 'es_ES']);
  await shot('site-locales');
});

ui.test('spotlights: one is created, edited and deleted through the page, each write checked in the API', async (t) => {
  await ui.page.goto(url(`/console/sites/${siteId}/spotlights`));
  await ui.page.waitForFunction(() => document.body.dataset.loaded === 'true');
  const stored = async () => (await json(ui.vela, 'GET', `/api/sn/${siteId}/spotlight`)).body as any[];
  t.deepEqual(await stored(), [], 'the spotlight API answers: no spotlights yet');
  t.is(await text('#spotlights-status'), 'No spotlights yet.');

  await ui.page.click('#add-spotlight');
  t.is(await ui.page.getAttribute('#spotlight-name', 'maxlength'), '100', 'the name takes what the API takes');
  await ui.page.fill('#spotlight-name', 'Install');
  await ui.page.fill('#spotlight-terms', 'install, setup');
  await ui.page.fill('#spotlight-documents [name="doc-title"]', 'Installation guide');
  await ui.page.fill('#spotlight-documents [name="doc-link"]', 'https://example.org/install');
  await ui.page.click('#spotlight-save');
  await ui.page.waitForSelector('#spotlights tbody tr');
  t.regex(await text('#spotlights tbody tr td:nth-child(3)'), /install, setup/);
  let [created] = await stored();
  t.like(created, { name: 'Install', locale: 'en_US', terms: ['install', 'setup'] });
  t.like(created.documents[0], { position: 1, title: 'Installation guide', link: 'https://example.org/install' });
  await shot('site-spotlights');

  await ui.page.getByRole('button', { name: 'Edit Install' }).click();
  t.is(await ui.page.inputValue('#spotlight-terms'), 'install, setup', 'the dialog opens with the stored values');
  await ui.page.fill('#spotlight-name', 'Installing');
  await ui.page.fill('#spotlight-terms', 'installation');
  await ui.page.click('#add-document');
  await ui.page.fill('#spotlight-documents .document-row:nth-child(2) [name="doc-title"]', 'Upgrade notes');
  await ui.page.fill('#spotlight-documents .document-row:nth-child(2) [name="doc-referenceId"]', 'doc-0003');
  await ui.page.click('#spotlight-save');
  await ui.page.waitForFunction(
    () => document.querySelector('#spotlights tbody tr td:first-child')?.textContent === 'Installing',
  );
  [created] = await stored();
  t.like(created, { name: 'Installing', terms: ['installation'] });
  t.deepEqual(
    created.documents.map((d: any) => [d.position, d.title, d.referenceId]),
    [
      [1, 'Installation guide', null],
      [2, 'Upgrade notes', 'doc-0003'],
    ],
  );
  t.is(await text('#spotlights tbody tr td:nth-child(4)'), '2');

  // A refused write is shown in the dialog.
  await ui.page.getByRole('button', { name: 'Edit Installing' }).click();
  await ui.page.fill('#spotlight-documents .document-row:nth-child(1) [name="doc-position"]', '100001');
  await ui.page.click('#spotlight-save');
  await ui.page.waitForSelector('#spotlight-error:not([hidden])');
  t.regex(await text('#spotlight-error'), /position must be at most 100000/);
  await ui.page.click('#spotlight-cancel');

  await ui.page.getByRole('button', { name: 'Delete Installing' }).click();
  await ui.page.locator('dialog[open]').waitFor();
  await ui.page.click('#confirm-button');
  await ui.page.waitForFunction(
    () => document.getElementById('spotlights-status')?.textContent === 'No spotlights yet.',
  );
  t.deepEqual(await stored(), []);
});

ui.test(
  'spotlights: the page of a site that does not exist; a spotlight deleted elsewhere while the page shows it',
  async (t) => {
    t.timeout(60_000);
    await ui.page.goto(url('/console/sites/no-such-site/spotlights'));
    await ui.page.waitForSelector('#error:not([hidden])');
    t.is(await text('#error'), 'no site named or with id "no-such-site"');
    t.true(
      await ui.page.locator('#spotlights-card').isHidden(),
      'nothing that would act on the missing site is offered',
    );
    t.true(await ui.page.locator('#add-spotlight').isHidden());
    t.is(await ui.page.evaluate(() => document.body.dataset.loaded ?? null), null);

    const make = async (name: string) =>
      (
        await json(ui.vela, 'POST', `/api/sn/${siteId}/spotlight`, {
          name,
          terms: [name.toLowerCase()],
          documents: [{ position: 1, title: name }],
        })
      ).body;
    const gone = await make('Gone');
    const stays = await make('Stays');
    await ui.page.goto(url(`/console/sites/${siteId}/spotlights`));
    await ui.page.waitForFunction(() => document.body.dataset.loaded === 'true');
    t.is(await ui.page.locator('#spotlights tbody tr').count(), 2);

    // Saved after someone else deleted it: the dialog names the missing spotlight, the list drops it.
    await json(ui.vela, 'DELETE', `/api/sn/${siteId}/spotlight/${gone.id}`);
    await ui.page.getByRole('button', { name: 'Edit Gone' }).click();
    await ui.page.fill('#spotlight-terms', 'vanished');
    await ui.page.click('#spotlight-save');
    await ui.page.waitForSelector('#spotlight-error:not([hidden])');
    t.is(await text('#spotlight-error'), `site "Handbook" has no spotlight with id "${gone.id}"`);
    await ui.page.click('#spotlight-cancel');
    await ui.page.waitForFunction(() => document.querySelectorAll('#spotlights tbody tr').length === 1);
    t.is(await text('#spotlights tbody tr td:first-child'), 'Stays');

    // Deleted when it is already gone: what was asked for holds, so no error, and the row goes.
    await json(ui.vela, 'DELETE', `/api/sn/${siteId}/spotlight/${stays.id}`);
    await ui.page.getByRole('button', { name: 'Delete Stays' }).click();
    await ui.page.locator('dialog[open]').waitFor();
    await ui.page.click('#confirm-button');
    await ui.page.waitForFunction(
      () => document.getElementById('spotlights-status')?.textContent === 'No spotlights yet.',
    );
    t.true(await ui.page.locator('#error').isHidden());
    t.deepEqual((await json(ui.vela, 'GET', `/api/sn/${siteId}/spotlight`)).body, []);
  },
);

ui.test('API tokens: one is created with scopes, shown once, narrowed, and deleted', async (t) => {
  await ui.page.getByRole('link', { name: 'API tokens' }).click();
  await ui.page.waitForURL(url('/console/tokens'));
  await ui.page.waitForFunction(
    () => document.getElementById('tokens-status')?.textContent === 'No tokens yet. Create one with “New token”.',
  );
  await ui.page.click('#add-token');
  await ui.page.fill('#token-title', 'Front end');
  await ui.page.check('#token-form input[value="import"]');
  await ui.page.click('#token-save');
  await ui.page.waitForSelector('#new-token:not([hidden])');
  const token = await text('#token-value');
  t.regex(token, /^[\w-]{32}$/);
  await ui.page.waitForSelector('#tokens tbody tr');
  t.is(await text('#tokens tbody tr td:nth-child(2)'), 'searchimport');
  const read = (key: string) => json(ui.vela, 'GET', '/api/sn', undefined, { key, authorization: '' });
  t.is((await read(token)).status, 200, 'the token reads sites');
  await shot('tokens');

  await ui.page.getByRole('button', { name: 'Edit Front end' }).click();
  await ui.page.uncheck('#token-form input[value="search"]');
  await ui.page.click('#token-save');
  await ui.page.waitForFunction(
    () => document.querySelector('#tokens tbody tr td:nth-child(2)')?.textContent === 'import',
  );
  t.is((await read(token)).status, 403, 'narrowed at once');
  await ui.page.getByRole('button', { name: 'Delete Front end' }).click();
  await ui.page.locator('dialog[open]').waitFor();
  await ui.page.click('#confirm-button');
  await ui.page.waitForFunction(() =>
    document.getElementById('tokens-status')?.textContent?.startsWith('No tokens yet'),
  );
  t.is((await read(token)).status, 401);
});

ui.test('at 390 px wide nothing overflows: the navigation collapses and tables become cards', async (t) => {
  await ui.page.setViewportSize({ width: 390, height: 844 });
  const pages = [
    '/console/sites',
    '/console/sites/new',
    `/console/sites/${siteId}`,
    `/console/sites/${siteId}/fields`,
    `/console/sites/${siteId}/locales`,
    `/console/sites/${siteId}/spotlights`,
    '/console/tokens',
  ];
  for (const path of pages) {
    await ui.page.goto(url(path));
    await ui.page.waitForLoadState('networkidle');
    const overflow = await ui.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    t.true(overflow <= 0, `${path} overflows by ${overflow} px`);
    t.true(await ui.page.locator('.topbar nav').isHidden(), `${path}: the navigation is behind the menu`);
    await shot(`phone${path.replaceAll('/', '-').replace(siteId, 'site')}`);
  }
  await ui.page.goto(url(`/console/sites/${siteId}/fields`));
  await ui.page.waitForSelector('#fields tbody tr');
  t.true(await ui.page.locator('#fields thead').isHidden(), 'the table is a list of cards');
  t.is(await ui.page.locator('#fields tbody tr[data-field="type"] td[data-label="Type"]').textContent(), 'STRING');
  await ui.page.getByRole('button', { name: 'Menu' }).click();
  await ui.page.getByRole('link', { name: 'API tokens' }).click();
  await ui.page.waitForURL(url('/console/tokens'));
  t.is(await ui.page.getAttribute('.nav-toggle', 'aria-expanded'), 'false', 'a new page starts with the menu closed');
  await ui.page.setViewportSize({ width: 1280, height: 900 });
});

ui.test('stored values are shown as text, never run', async (t) => {
  await json(ui.vela, 'POST', '/api/dev/token', { title: '<img src=x onerror=alert(1)>', scopes: ['search'] });
  await ui.page.goto(url('/console/tokens'));
  await ui.page.waitForSelector('#tokens tbody tr');
  t.is(await text('#tokens tbody tr td:first-child'), '<img src=x onerror=alert(1)>');
  t.is(await ui.page.locator('#tokens img').count(), 0);
});

ui.testSignOut('search', '/console/tokens');
ui.testNoPageErrors();
