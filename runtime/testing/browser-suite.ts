import type { ImplementationFn, TestFn } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, VIEWPORTS } from './browser.js';
import { openBrowserPage } from './browser-page.js';
import type { TestRuntime } from './test-runtime.js';

/**
 * What the browser tests of one file share: one runtime and one Chromium, started before the first test and
 * stopped after the last, and a page open at a laptop's viewport with its uncaught script errors.
 */
export interface BrowserSuite {
  /** Declares one of the file's browser tests: skipped where no Chromium runs, or where `when` said no. */
  test: (title: string, implementation: ImplementationFn<[]>) => void;
  vela: TestRuntime;
  browser: Browser;
  page: Page;
  pageErrors: string[];
  /**
   * A new page of the suite's Chromium at `viewport` (a laptop's unless told) showing `pathname` of the runtime's
   * `service`, once `ready` (a selector) is on it. The test closes it.
   */
  open(service: string, pathname: string, ready: string, viewport?: Viewport): Promise<Page>;
}

type Viewport = { width: number; height: number };

export interface BrowserSuiteOptions {
  /** Run the tests one after the other, each going on from where the page of the one before was left (default). */
  serial?: boolean;
  /** What else the tests need (a plugin on the loader path): false skips them, as a missing browser does. */
  when?: boolean;
}

/**
 * Register the hooks that start `start`'s runtime and Chromium once for the file (side by side, as neither
 * waits for the other) and stop both after its tests; the members of the answer are set once the hooks ran.
 */
export function browserSuite(
  test: TestFn,
  start: () => Promise<TestRuntime>,
  { serial = true, when = true }: BrowserSuiteOptions = {},
): BrowserSuite {
  const runs = when && browserAvailable();
  const declare = runs ? (serial ? test.serial : test) : test.skip;
  const suite = {
    test: (title, implementation) => declare(title, implementation),
    open: async (service, pathname, ready, viewport = VIEWPORTS.desktop) => {
      const page = await suite.browser.newPage({ viewport });
      await page.goto(suite.vela.url(service, pathname));
      await page.waitForSelector(ready);
      return page;
    },
  } as BrowserSuite;
  test.before(async () => {
    if (!runs) return;
    const [vela, opened] = await Promise.allSettled([start(), openBrowserPage()]);
    if (vela.status === 'fulfilled') suite.vela = vela.value;
    if (opened.status === 'fulfilled') Object.assign(suite, opened.value);
    for (const result of [vela, opened]) if (result.status === 'rejected') throw result.reason;
  });
  test.after.always(async () => {
    await suite.browser?.close();
    await suite.vela?.stop();
  });
  return suite;
}
