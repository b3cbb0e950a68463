import test from 'ava';
import { browserSuite, pageLayoutProblems, submitConsoleSignIn, VIEWPORTS } from 'vela/testing';
import { call, createSite, createSource, makePackages, startConnector, tempDir, writeJsonl } from './helpers.js';

// The connector's status page in a browser: every column of a source's last run readable at 1280 and at 390 px.
const ui = browserSuite(test, async () => {
  const vela = await startConnector();
  await createSite(vela, 'Status');
  await createSource(vela, 'feed', writeJsonl(`${tempDir()}/feed.jsonl`, makePackages(3)), 'Status');
  const run = await call(vela, 'GET', '/api/v2/connector/index/feed/all?wait=true');
  if (run.body?.run?.status !== 'COMPLETED') throw new Error(`the run did not complete: ${JSON.stringify(run.body)}`);
  return vela;
});

ui.test('the status page lists the last run; on a phone each source is a card with every column named', async (t) => {
  t.timeout(60_000);
  const { page, vela } = ui;
  await page.goto(vela.url('connector', '/'));
  await page.waitForURL(/\/console\/login\?next=/);
  await submitConsoleSignIn(page);
  await page.waitForURL(vela.url('connector', '/console/status'));
  const row = page.locator('#sources tbody tr[data-source="feed"]');
  await row.waitFor();
  t.is((await row.locator('.badge').textContent())?.trim(), 'COMPLETED');

  const labels = ['Source', 'Kind', 'Sites', 'Schedule', 'Last run', 'Documents', 'Per second', 'Ended'];
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await page.reload();
    await row.waitFor();
    t.deepEqual(await pageLayoutProblems(page, vela, `connector-status-${width}.png`, '#sources tbody tr'), [], width);
    const cells = await row.locator('td').evaluateAll((tds) =>
      tds.map((td) => {
        const box = td.getBoundingClientRect();
        const scroller = td.closest('.table-card') as HTMLElement;
        return {
          label: getComputedStyle(td, '::before').content,
          // A cell is seen when it lies inside the table's box, not scrolled out of it sideways.
          inside:
            box.left >= scroller.getBoundingClientRect().left - 0.5 &&
            box.right <= scroller.getBoundingClientRect().right + 0.5,
        };
      }),
    );
    t.deepEqual(
      cells.map((cell) => cell.inside),
      labels.map(() => true),
      `every column of the run is in view at ${width}`,
    );
    if (width === 'phone') {
      t.true(await page.locator('#sources thead').isHidden(), 'the header row gives way to labels in each card');
      t.deepEqual(
        cells.map((cell) => cell.label),
        labels.map((label) => `"${label}"`),
      );
      t.is(await row.locator('td[data-label="Documents"]').textContent(), '3');
    } else {
      t.true(await page.locator('#sources thead').isVisible());
    }
  }
  t.deepEqual(ui.pageErrors, []);
});
