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
  /**
   * Declare the test that the console the shared page is signed in to ends its session on Sign out: the page
   * goes to sign-in, and so does `pathname` (a page of the console of `service`) opened afterwards.
   */
  testSignOut(service: string, pathname: string): void;
  /** Declare the file's last test: no script of the shared page failed on any page the tests before it opened. */
  testNoPageErrors(): void;
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
    testSignOut: (service, pathname) =>
      suite.test('signing out ends the session: pages go back to sign-in', async (t) => {
        await suite.page.getByRole('button', { name: 'Sign out' }).click();
        await suite.page.waitForURL(/\/console\/login$/);
        await suite.page.goto(suite.vela.url(service, pathname));
        const next = encodeURIComponent(pathname).replace(/[.*()]/g, '\\$&');
        await suite.page.waitForURL(new RegExp(`/console/login\\?next=${next}$`));
        t.is(await suite.page.locator('.topbar .user').count(), 0);
      }),
    testNoPageErrors: () =>
      suite.test('no page script failed on any page of the run', (t) => {
        t.deepEqual(suite.pageErrors, []);
      }),
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
