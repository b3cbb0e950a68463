import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { type Browser, chromium, type Page } from 'playwright-core';
import {
  browserAvailable,
  CHROMIUM,
  CHROMIUM_ARGS,
  layoutProblems,
  pageLayout,
  VIEWPORTS,
} from '../../runtime/testing/browser.js';

// The layout rules the browser tests hold every page to must catch a page that breaks them.
const browserTest = browserAvailable() ? test : test.skip;
let browser: Browser;
const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-layout-'));

test.before(async () => {
  if (browserAvailable()) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.after.always(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function phonePage(html: string): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORTS.phone });
  await page.setContent(
    `<!doctype html><meta name="viewport" content="width=device-width"><body style="margin:0">${html}</body>`,
  );
  return page;
}

browserTest('a page that fits keeps the rules; a table wider than the screen may scroll inside its box', async (t) => {
  const page = await phonePage(
    '<p id="first">Hello</p><div style="overflow-x:auto"><table><tr><td style="min-width:900px">wide</td></tr></table></div>',
  );
  const layout = await pageLayout(page, path.join(dir, 'fits.png'), '#first');
  t.deepEqual(layoutProblems(layout), []);
  t.deepEqual(layout.screenshot, { file: path.join(dir, 'fits.png'), width: 390, height: 844 });
  await page.close();
});

browserTest('something wider than the screen is named, and the screenshot shows the overflow', async (t) => {
  const page = await phonePage('<main><div id="wide" class="banner" style="width:700px">wide</div></main>');
  const layout = await pageLayout(page, path.join(dir, 'wide.png'));
  t.is(layout.scrollWidth, 700);
  t.is(layout.screenshot.width, 700);
  const problems = layoutProblems(layout);
  t.is(problems.length, 2);
  t.regex(problems[0]!, /^700 px wide on a 390x844 screen, past its edge: div#wide\.banner$/);
  await page.close();
});

browserTest('a positioned element escaping its scrolling box (no positioned ancestor) is caught', async (t) => {
  const table =
    '<table><tr><th style="min-width:700px">A</th><th><span id="hidden" style="position:absolute;width:1px;height:1px;overflow:hidden">Actions</span></th></tr></table>';
  const page = await phonePage(`<div style="overflow-x:auto">${table}</div>`);
  t.deepEqual((await pageLayout(page, path.join(dir, 'escaped.png'))).overflowing, ['span#hidden']);
  await page.evaluate(() => {
    (document.querySelector('div') as HTMLElement).style.position = 'relative';
  });
  t.deepEqual(
    layoutProblems(await pageLayout(page, path.join(dir, 'contained.png'))),
    [],
    'a positioned scrolling box holds it',
  );
  await page.close();
});

browserTest('what must be on the first screen is checked against the height of the screen', async (t) => {
  const page = await phonePage('<div style="height:900px">facets</div><article>first result</article>');
  t.deepEqual(layoutProblems(await pageLayout(page, path.join(dir, 'late.png'), 'article')), [
    'article is not on the first screen of 390x844 (it starts at 900 px)',
  ]);
  t.deepEqual(layoutProblems(await pageLayout(page, path.join(dir, 'missing.png'), 'section')), [
    'section is not on the first screen of 390x844 (not found)',
  ]);
  await page.close();
});
