import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive through playwright-core (no browser download). */
export const CHROMIUM = process.env.VELA_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here; with VELA_REQUIRE_BROWSER=1 (CI) they always run, so a
 * missing browser is a failure rather than a skip.
 */
export function browserAvailable(): boolean {
  const available = process.env.VELA_REQUIRE_BROWSER === '1' || existsSync(CHROMIUM);
  if (!available) noteSkipped();
  return available;
}

let noted = false;
/** Said once per test file: a skipped browser test must not pass for a run one. */
function noteSkipped(): void {
  if (noted) return;
  noted = true;
  process.stderr.write(
    `browser tests SKIPPED: no Chromium at ${CHROMIUM} (install Debian's chromium, or set VELA_CHROMIUM to a Chromium binary; CI installs it in .ci/run and sets VELA_REQUIRE_BROWSER=1)\n`,
  );
}

/** Flags that keep Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The widths every page is tried at: a laptop, and a phone 390 CSS pixels wide (iPhone 12 to 15). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** How a page fits its viewport, measured in the browser and on the screenshot it saved. */
export interface PageLayout {
  viewport: { width: number; height: number };
  /** `document.scrollingElement.scrollWidth`: more than the viewport's width when something sticks out sideways. */
  scrollWidth: number;
  /** The innermost elements reaching past the right edge (`tag#id.class`), to name what overflows. */
  overflowing: string[];
  /** Where the element that must be on the first screen starts, from the top of the page (null: not there). */
  firstScreen?: { selector: string; top: number | null };
  /** The full-page PNG saved: a page that fits is exactly as wide as its viewport. */
  screenshot: { file: string; width: number; height: number };
}

/**
 * Measure how the page fits its viewport and save a full-page screenshot to `file`. The screenshot's
 * size is read back from the PNG itself, so the picture kept is the one checked against the layout rules.
 * `onFirstScreen` names an element a reader must see without scrolling (a page's first result).
 */
export async function pageLayout(page: Page, file: string, onFirstScreen?: string): Promise<PageLayout> {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('pageLayout needs a page with a fixed viewport');
  // No named functions inside: tsx would wrap them in a helper that exists only in Node, not in the page.
  const measured = await page.evaluate((selector) => {
    const edge = window.innerWidth + 0.5;
    // What a scrolling box holds scrolls inside it, unless it is positioned against something further out.
    const wide = [...document.querySelectorAll('body *')].filter((el) => {
      if (el.getBoundingClientRect().right <= edge) return false;
      const absolute = /absolute|fixed/.test(getComputedStyle(el).position);
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX !== 'visible' && (!absolute || style.position !== 'static')) return false;
      }
      return true;
    });
    const overflowing = wide
      .filter((el) => !wide.some((other) => other !== el && el.contains(other)))
      .slice(0, 5)
      .map(
        (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') + [...el.classList].map((c) => `.${c}`).join(''),
      );
    const first = selector ? document.querySelector(selector) : null;
    const firstScreen = selector
      ? { selector, top: first ? first.getBoundingClientRect().top + window.scrollY : null }
      : undefined;
    return { scrollWidth: document.scrollingElement?.scrollWidth ?? 0, overflowing, firstScreen };
  }, onFirstScreen);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return { viewport, ...measured, screenshot: { file, ...pngSize(readFileSync(file)) } };
}

/**
 * The layout rules every page keeps, checked on a measured page: nothing reaches past the sides of the
 * viewport (in the page nor on its full-page screenshot), and what must be on the first screen starts there.
 * Answers what is broken, in words; empty when the page keeps the rules.
 */
export function layoutProblems({ viewport, scrollWidth, overflowing, firstScreen, screenshot }: PageLayout): string[] {
  const problems: string[] = [];
  const screen = `${viewport.width}x${viewport.height}`;
  if (scrollWidth > viewport.width)
    problems.push(`${scrollWidth} px wide on a ${screen} screen, past its edge: ${overflowing.join(', ') || '?'}`);
  if (screenshot.width !== viewport.width)
    problems.push(`the screenshot ${screenshot.file} is ${screenshot.width} px wide on a ${screen} screen`);
  if (firstScreen && (firstScreen.top === null || firstScreen.top >= viewport.height)) {
    problems.push(
      `${firstScreen.selector} is not on the first screen of ${screen} (${firstScreen.top === null ? 'not found' : `it starts at ${Math.round(firstScreen.top)} px`})`,
    );
  }
  return problems;
}

/** Width and height from a PNG's IHDR chunk, which always follows the 8-byte signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Where a test keeps its screenshots: VELA_SCREENSHOT_DIR when set (to look at them), else `fallback`. */
export function screenshotDir(fallback: string): string {
  return process.env.VELA_SCREENSHOT_DIR ?? fallback;
}

/**
 * Measure `page` (pageLayout) and answer what breaks the layout rules (layoutProblems), its screenshot kept as
 * `fileName` in the screenshot folder (screenshotDir), by default the `screenshots` folder of `vela`'s data.
 */
export async function pageLayoutProblems(
  page: Page,
  vela: { dataDir: string },
  fileName: string,
  onFirstScreen?: string,
): Promise<string[]> {
  const file = path.join(screenshotDir(path.join(vela.dataDir, 'screenshots')), fileName);
  return layoutProblems(await pageLayout(page, file, onFirstScreen));
}
