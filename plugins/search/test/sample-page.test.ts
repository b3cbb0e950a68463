import path from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import {
  browserSuite,
  pageLayoutProblems,
  screenshotDir,
  startTestRuntime,
  VIEWPORTS,
  watchInjections,
} from 'vela/testing';
import { createSite, importDocs, makeDocs } from './fixtures.js';

const docs = makeDocs(60);
// Descriptions as imported documents have them: paragraphs, line breaks, more text than a result shows.
const longText = (i: number) =>
  `First paragraph of note ${i}.\n\nSecond paragraph, after a blank line.\nA line of its own. ${'More words to read. '.repeat(40)}`;

const ui = browserSuite(
  test,
  async () => {
    const vela = await startTestRuntime({ plugins: ['search'] });
    await createSite(vela, 'Sample', { rowsPerPage: 10 });
    await importDocs(vela, docs);
    await createSite(vela, 'Notes', { rowsPerPage: 10 });
    await importDocs(
      vela,
      makeDocs(4, 3).map((d, i) => ({ ...d, text: longText(i) })),
      'Notes',
    );
    await createSite(vela, 'Single', { rowsPerPage: 10 });
    await importDocs(vela, makeDocs(1, 5), 'Single');
    await createSite(vela, 'Spelled', { rowsPerPage: 10, spellCheck: true, spellCheckFixes: true });
    await importDocs(vela, makeDocs(20, 9), 'Spelled');
    return vela;
  },
  { serial: false },
);
const shots = () => screenshotDir(path.join(ui.vela.dataDir, 'screenshots'));

ui.test(
  "the sample page renders results, facets, pagination and locales, and follows the response's links",
  async (t) => {
    const page = await ui.browser.newPage();
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) apiCalls.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await page.goto(ui.vela.url('search', '/sn/Sample'));
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
    await page.waitForFunction(
      (n) => new RegExp(`(^| of )${n} results$`).test(document.querySelector('#summary')?.textContent ?? ''),
      expected,
    );
    t.regex(page.url(), new RegExp(`fq\\[\\]=section:${label}`));
    t.deepEqual(await page.locator('.chip').allTextContents(), [`${label} ✕`, 'Clear all']);

    // Page 2 through the pagination links.
    await page.goto(ui.vela.url('search', '/sn/Sample?q=*&_setlocale=en_US'));
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

    // Besides searches, the chat box asks once whether the site chats (404 here: no genai plugin, so it stays
    // hidden), and the search box may have asked for suggestions while it was typed in.
    t.true(
      apiCalls.every(
        (c) =>
          c.startsWith('/api/sn/Sample/search?') ||
          c.startsWith('/api/sn/Sample/chat?_setlocale=') ||
          c.startsWith('/api/sn/Sample/ac?q='),
      ),
      `the page only called the search API: ${apiCalls.join(', ')}`,
    );
    t.true(await page.locator('#chat').isHidden());
    await page.screenshot({ path: `${ui.vela.dataDir}/sample-page.png` });
    await page.close();
  },
);

ui.test(
  'a stored javascript: or data: URL is never a link target, and no injected script runs under the page CSP',
  async (t) => {
    await createSite(ui.vela, 'Hostile', { rowsPerPage: 20 });
    const hostile = [
      'javascript:window.__ran=1',
      'JaVaScRiPt:window.__ran=1',
      ' \tjava\nscript:window.__ran=1',
      'data:text/html,<script>window.__ran=1</script>',
      'vbscript:msgbox(1)',
    ];
    const fine = ['https://packages.example/ok', '/local/page', 'other/relative?x=1'];
    const base = makeDocs(hostile.length + fine.length, 11);
    const stored = [...hostile, ...fine].map((url, i) => ({
      ...base[i]!,
      title: `entry ${i} <img src=x onerror="window.__ran=1">`,
      url,
    }));
    await importDocs(ui.vela, stored, 'Hostile');

    const page = await ui.browser.newPage();
    const planted = watchInjections(page);
    const response = await page.goto(ui.vela.url('search', '/sn/Hostile?q=*&_setlocale=en_US'));
    t.notRegex(response!.headers()['content-security-policy'] ?? '', /unsafe-inline/);
    await page.waitForSelector('article');
    t.is(await page.locator('article').count(), stored.length);

    const targets = await page
      .locator('article h3 a')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
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
    await page.evaluate(() =>
      document.body.insertAdjacentHTML('beforeend', '<img src="x" onerror="window.__ran=1"><a id="js" href="#">x</a>'),
    );
    await page.evaluate(() => {
      const a = document.getElementById('js') as HTMLAnchorElement;
      a.setAttribute('onclick', 'window.__ran=1');
      a.click();
    });
    t.deepEqual(await planted.traces(200), []);
    await page.close();
  },
);

ui.test(
  'the search box suggests completions as a combobox: debounced, escaped, and used with the arrow keys, Enter and Escape',
  async (t) => {
    const page = await ui.browser.newPage({ viewport: VIEWPORTS.desktop });
    const suggestCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/sn/Sample/ac') suggestCalls.push(new URL(r.url()).search);
    });
    await page.goto(ui.vela.url('search', '/sn/Sample?q=*&_setlocale=en_US'));
    await page.waitForSelector('article');
    const box = page.locator('#q');
    const list = page.locator('#q-suggestions');
    t.is(await box.getAttribute('role'), 'combobox');
    t.is(await box.getAttribute('aria-controls'), 'q-suggestions');
    t.is(await box.getAttribute('aria-expanded'), 'false');
    t.is(await list.getAttribute('role'), 'listbox');

    // Seven keystrokes in quick succession (input events within one task, faster than any typist): one request
    // once the typing pauses, not one a key.
    await box.click();
    await box.evaluate((el: HTMLInputElement) => {
      for (const text of ['p', 'py', 'pyt', 'pyth', 'pytho', 'python', 'python ']) {
        el.value = text;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await list.locator('[role="option"]').first().waitFor();
    t.is(await box.getAttribute('aria-expanded'), 'true');
    const expected = (await (
      await ui.vela.fetch('search', '/api/sn/Sample/ac?q=python%20&_setlocale=en_US&rows=8')
    ).json()) as string[];
    const shown = await list.locator('[role="option"]').allTextContents();
    t.deepEqual(shown, expected, "the options are the API's suggestions, in its order");
    t.true(shown.length >= 2, shown.join(', '));
    t.deepEqual(
      suggestCalls,
      ['?q=python%20&_setlocale=en_US&rows=8'],
      `one request for seven keystrokes: ${suggestCalls.join(' ')}`,
    );
    t.is(await list.locator('[role="option"] *').count(), 0, 'options are text, not markup');

    // The arrow keys move the highlight (the focus stays in the box) and wrap around; Escape closes the list.
    const activeOption = async () => {
      const id = await box.getAttribute('aria-activedescendant');
      return id ? page.locator(`#${id}`).textContent() : null;
    };
    t.is(await activeOption(), null);
    await box.press('ArrowDown');
    t.is(await activeOption(), shown[0]!);
    t.is(await list.locator('[aria-selected="true"]').count(), 1);
    await box.press('ArrowDown');
    t.is(await activeOption(), shown[1]!);
    await box.press('ArrowUp');
    await box.press('ArrowUp');
    t.is(await activeOption(), shown[shown.length - 1]!, 'up from the first option wraps to the last');
    t.true(await box.evaluate((el) => document.activeElement === el), 'the box keeps the focus');
    await box.press('Escape');
    t.is(await box.getAttribute('aria-expanded'), 'false');
    t.true(await list.isHidden());
    t.is(await box.inputValue(), 'python ', 'Escape leaves what was typed');

    // Typed with the keyboard, the suggestions follow what is in the box.
    await box.fill('');
    t.true(await list.isHidden(), 'an empty box has no suggestions');
    await box.pressSequentially('python ', { delay: 30 });
    await page.waitForFunction(
      (want) =>
        JSON.stringify([...document.querySelectorAll('#q-suggestions [role="option"]')].map((o) => o.textContent)) ===
        want,
      JSON.stringify(shown),
    );
    t.is(await box.getAttribute('aria-expanded'), 'true');
    await box.press('Escape');

    // Down opens the list again; Enter on an option searches it.
    await box.press('ArrowDown');
    t.is(await box.getAttribute('aria-expanded'), 'true');
    await box.press('ArrowDown');
    const chosen = shown[1]!;
    t.is(await activeOption(), chosen);
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === chosen);
    await page.waitForSelector('article');
    t.is(await box.inputValue(), chosen);
    const count = (
      await (
        await ui.vela.fetch('search', `/api/sn/Sample/search?q=${encodeURIComponent(chosen)}&_setlocale=en_US`)
      ).json()
    ).queryContext.count;
    t.regex((await page.locator('#summary').textContent())!, new RegExp(`(^| of )${count} results?$`));

    // One character gives nothing to suggest: the list stays closed, and no request is made for it.
    const before = suggestCalls.length;
    await box.fill('');
    await box.pressSequentially('p');
    await page.waitForTimeout(400);
    t.true(await list.isHidden());
    t.is(suggestCalls.length, before);
    await page.close();
  },
);

ui.test('on a phone the suggestions open under the box, inside the screen, and a tap on one searches it', async (t) => {
  const page = await ui.open('search', '/sn/Sample?q=*&_setlocale=en_US', 'article', VIEWPORTS.phone);
  await page.locator('#q').click();
  await page.locator('#q').pressSequentially('python ', { delay: 30 });
  const option = page.locator('#q-suggestions [role="option"]').first();
  await option.waitFor();
  const list = (await page.locator('#q-suggestions').boundingBox())!;
  const input = (await page.locator('#q').boundingBox())!;
  t.true(list.y >= input.y + input.height, 'below the box');
  t.true(list.x >= 0 && list.x + list.width <= VIEWPORTS.phone.width, 'inside the screen');
  t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-phone-suggestions.png'), []);
  const text = (await option.textContent())!;
  await option.tap().catch(() => option.click());
  await page.waitForURL((url) => url.searchParams.get('q') === text);
  await page.close();
});

ui.test(
  'spell check on the page: "Showing results for" the corrected text with the way back, and "Did you mean" as a link to the corrected search',
  async (t) => {
    const page = await ui.open('search', '/sn/Spelled?q=pyhton&_setlocale=en_US', '#spell');
    const planted = watchInjections(page);
    const spell = page.locator('#spell');
    // The site searches the corrected text when the typed one finds nothing, and the answer says so.
    t.is(await spell.textContent(), 'Showing results for python. Search instead for pyhton.');
    t.not(await page.locator('#summary').textContent(), 'No results.');
    const back = spell.locator('a', { hasText: 'pyhton' });
    t.regex(
      (await back.getAttribute('href'))!,
      /^\/sn\/Spelled\?.*q=pyhton.*nfpr=1/,
      'the way back searches the text as typed, uncorrected',
    );
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-spell-corrected.png'), []);

    await back.click();
    await page.waitForFunction(() => document.querySelector('#spell')?.textContent === 'Did you mean python?');
    t.regex(page.url(), /nfpr=1/);
    t.is(await page.locator('#summary').textContent(), 'No results.');
    await page.setViewportSize(VIEWPORTS.phone);
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-spell-did-you-mean-phone.png'), []);
    await page.setViewportSize(VIEWPORTS.desktop);
    t.is(await page.locator('#q').inputValue(), 'pyhton');
    const suggestion = spell.locator('a');
    t.is(await suggestion.textContent(), 'python');
    // Reached from the keyboard as any link is.
    await suggestion.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'python');
    await page.waitForSelector('article');
    t.true(await spell.isHidden(), 'a query spelled right gets no suggestion');
    await page.screenshot({ path: path.join(shots(), 'sample-spell.png') });

    // What a visitor typed is text on the page, never markup.
    await page.goto(
      ui.vela.url(
        'search',
        `/sn/Spelled?q=${encodeURIComponent('pyhton <img src=x onerror=window.__ran=1>')}&_setlocale=en_US&nfpr=1`,
      ),
    );
    await page.waitForSelector('#summary:not(:empty)');
    t.is(await page.locator('#spell img, #spell b').count(), 0);
    t.deepEqual(await planted.traces(), []);
    await page.close();
  },
);

const open = (viewport: { width: number; height: number }, pagePath: string) =>
  ui.open('search', pagePath, 'article', viewport);
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

ui.test(
  'on a laptop the facets stand beside the results, the first result is on the first screen and nothing overflows',
  async (t) => {
    const page = await open(VIEWPORTS.desktop, '/sn/Sample?q=*&_setlocale=en_US');
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-desktop.png', 'article'), []);
    t.true(await page.locator('#facets').isVisible());
    t.true(await page.locator('#filters-toggle').isHidden(), 'no Filters button where the facets have room');
    const facets = await box(page, '#facets');
    t.true(facets.x + facets.width <= (await box(page, 'article')).x, 'the facets are a column left of the results');
    t.false(overlap(await box(page, '#search-form button'), await box(page, '#locales')));
    await page.close();
  },
);

ui.test(
  'on a phone the results come first, the facets wait behind Filters, and a chosen facet stays as a chip',
  async (t) => {
    const page = await open(VIEWPORTS.phone, '/sn/Sample?q=*&_setlocale=en_US');
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-phone.png', 'article'), []);
    t.true(await page.locator('#facets').isHidden());
    for (const locale of await page.locator('#locales a').all()) {
      t.false(
        overlap(await box(page, '#search-form button'), (await locale.boundingBox())!),
        'the Search button is clear of the locales',
      );
    }

    const toggle = page.locator('#filters-toggle');
    t.is(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    t.is(await toggle.getAttribute('aria-expanded'), 'true');
    await page.locator('section[data-facet="section"]').waitFor();
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-phone-filters.png'), []);

    const first = page.locator('section[data-facet="section"] li a').first();
    const label = (await first.locator('span').first().textContent())!;
    await first.click();
    await page.locator('.chip', { hasText: `${label} ✕` }).waitFor();
    t.true(await page.locator('#facets').isHidden(), 'choosing a facet folds the filters away again');
    t.is(await toggle.textContent(), 'Filters (1)');
    t.deepEqual(await pageLayoutProblems(page, ui.vela, 'sample-phone-chosen.png', 'article'), []);
    // The chip is the chosen facet's remove control.
    await page.locator('.chip', { hasText: `${label} ✕` }).click();
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent === '1–10 of 60 results');
    t.is(await page.locator('.chip').count(), 0);
    await page.close();
  },
);

ui.test(
  "result titles take the page's colours, descriptions are one paragraph of at most three lines, one page has no pager",
  async (t) => {
    for (const viewport of Object.values(VIEWPORTS)) {
      const page = await open(viewport, '/sn/Notes?q=*&_setlocale=en_US');
      const title = await page
        .locator('article h3 a')
        .first()
        .evaluate((a) => getComputedStyle(a).color);
      t.is(
        title,
        'rgb(47, 91, 234)',
        "the page's accent (--accent: #2f5bea), not the browser's link blue rgb(0, 0, 238)",
      );

      const description = page.locator('article p').first();
      t.regex(
        (await description.textContent())!,
        /^First paragraph of note \d+\. Second paragraph, after a blank line\. A line of its own\. More/,
      );
      const lines = await description.evaluate((p) => {
        const style = getComputedStyle(p);
        return {
          shown: p.clientHeight / Number.parseFloat(style.lineHeight),
          clipped: p.scrollHeight > p.clientHeight,
        };
      });
      t.true(lines.shown <= 3.05, `${lines.shown} lines shown`);
      t.true(lines.clipped, 'the rest of the text is clamped away');

      t.is(await page.locator('#summary').textContent(), '4 results', 'no range when every result is on the page');
      t.true(await page.locator('#pagination').isHidden(), 'a single page has no pager');
      await page.close();
    }
    const single = await open(VIEWPORTS.phone, '/sn/Single?q=*&_setlocale=en_US');
    t.is(await single.locator('#summary').textContent(), '1 result');
    await single.close();
  },
);

ui.test(
  'an unknown site gets an HTML page naming it (escaped, under the page CSP); API clients get the JSON error',
  async (t) => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const page = await ui.browser.newPage({ viewport });
      const response = (await page.goto(ui.vela.url('search', `/sn/${encodeURIComponent('No<b>Such</b>Site')}`)))!;
      t.is(response.status(), 404);
      t.regex(response.headers()['content-type'] ?? '', /^text\/html/);
      t.regex(
        response.headers()['content-security-policy'] ?? '',
        /^default-src 'none'; script-src 'self'; style-src 'self'/,
      );
      t.is(await page.locator('h2').textContent(), 'No site named “No<b>Such</b>Site”');
      t.is(await page.locator('b').count(), 0, 'the name is text, not markup');
      t.deepEqual(await pageLayoutProblems(page, ui.vela, `sample-missing-${width}.png`), []);
      await page.close();
    }
    const api = await ui.vela.fetch('search', '/sn/NoSuchSite', { headers: { accept: 'application/json' } });
    t.is(api.status, 404);
    t.like(await api.json(), { error: 'site_not_found' });
  },
);

ui.test(
  "a value with $-patterns reaches the page as it is: markers like $` and $' copy no part of the template",
  async (t) => {
    // String.replace reads `$&`, `` $` `` and `$'` in a replacement string as patterns: these values would
    // have pulled parts of the template, unescaped, into the page.
    await createSite(ui.vela, 'Dollars', { rowsPerPage: 10, hlPre: '$`<b>', hlPost: "</b>$'" });
    await importDocs(ui.vela, makeDocs(5, 5), 'Dollars');
    const page = await ui.open('search', '/sn/Dollars?q=package&_setlocale=en_US', 'article mark', VIEWPORTS.phone);
    t.deepEqual(await page.evaluate(() => ({ ...document.body.dataset })), {
      site: 'Dollars',
      hlPre: '$`<b>',
      hlPost: "</b>$'",
    });
    t.is(await page.locator('article mark').first().textContent(), 'package', 'the markers became highlights');
    t.is(await page.locator('article b').count(), 0);
    t.is(await page.locator('h1').count(), 1, 'no copy of the header');

    await page.goto(ui.vela.url('search', `/sn/${encodeURIComponent("a$&b$'c")}`));
    t.is(await page.locator('h2').textContent(), "No site named “a$&b$'c”");
    t.is(await page.title(), "No site named a$&b$'c");
    await page.close();
  },
);
