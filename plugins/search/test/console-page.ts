import { type BrowserSuite, submitConsoleSignIn } from 'vela/testing';

// Set VELA_SCREENSHOT_DIR to keep a picture of every page the tests visit.
const screenshots = process.env.VELA_SCREENSHOT_DIR;

/**
 * What the search console's browser tests (this plugin's and those of the plugins that add pages to it) do with
 * their suite's page: the search service's addresses, an element's text, a picture of the page, signing in.
 */
export function searchConsolePage(ui: BrowserSuite) {
  const url = (path: string) => ui.vela.url('search', path);
  return {
    url,
    text: async (selector: string) => ((await ui.page.locator(selector).textContent()) ?? '').trim(),
    async shot(name: string) {
      if (screenshots) await ui.page.screenshot({ path: `${screenshots}/search-${name}.png`, fullPage: true });
    },
    /** Sign in as the administrator and land on the sites page. */
    async signIn() {
      await ui.page.goto(url('/console/login?next=/console/sites'));
      await submitConsoleSignIn(ui.page);
      await ui.page.waitForURL(url('/console/sites'));
    },
  };
}
