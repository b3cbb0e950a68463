import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, VIEWPORTS } from './browser.js';
import { TEST_ADMIN } from './test-runtime.js';

/** A Chromium with one page open, and the uncaught script errors of that page as they happen. */
export interface BrowserPage {
  browser: Browser;
  page: Page;
  pageErrors: string[];
}

/** Launch the browser tests' Chromium (CHROMIUM, with CHROMIUM_ARGS). */
export async function launchChromium(): Promise<Browser> {
  // Loaded here, not with vela/testing, so tests without a browser never load playwright.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Launch Chromium and open one page at `viewport` (a laptop's unless told), collecting its script errors. */
export async function openBrowserPage(
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
): Promise<BrowserPage> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { browser, page, pageErrors };
}

/** What watchInjections saw of the scripts planted in what a page shows. */
export interface InjectionWatch {
  /** The messages of the dialogs the page opened (each dismissed at once): an `alert` that ran opens one. */
  dialogs: string[];
  /**
   * After `settleMs` (the time a planted handler a click set off has to run), what shows a planted script ran:
   * each dialog opened, and the marker the tests' planted scripts set (`window.__ran = 1`). Empty when none ran.
   */
  traces(settleMs?: number): Promise<string[]>;
}

/** Watch `page` for scripts planted in the data it shows (`onerror="window.__ran=1"`, `javascript:` links). */
export function watchInjections(page: Page): InjectionWatch {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return {
    dialogs,
    traces: async (settleMs = 0) => {
      if (settleMs > 0) await page.waitForTimeout(settleMs);
      const marked = await page.evaluate(() => (window as unknown as { __ran?: number }).__ran !== undefined);
      return [...dialogs.map((message) => `a dialog: ${message}`), ...(marked ? ['window.__ran was set'] : [])];
    },
  };
}

/** Fill in and send a console's sign-in form as the test administrator, with `password` (the right one unless told). */
export async function submitConsoleSignIn(page: Page, password: string = TEST_ADMIN.password): Promise<void> {
  await page.fill('#username', TEST_ADMIN.user);
  await page.fill('#password', password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
