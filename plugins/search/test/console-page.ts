import { type BrowserSuite, pageLayoutProblems, submitConsoleSignIn, VIEWPORTS } from 'vela/testing';

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
    /**
     * Open `path` on a phone: what breaks the layout rules (its picture kept as `picture`), and whether the navigation
     * folded behind the menu; the viewport goes back to a laptop's.
     */
    async onPhone(path: string, picture: string) {
      await ui.page.setViewportSize(VIEWPORTS.phone);
      try {
        await ui.page.goto(url(path));
        await ui.page.waitForLoadState('networkidle');
        const problems = await pageLayoutProblems(ui.page, ui.vela, picture);
        return { problems, navigationFolded: await ui.page.locator('.topbar nav').isHidden() };
      } finally {
        await ui.page.setViewportSize(VIEWPORTS.desktop);
      }
    },
  };
}
