import { readFileSync } from 'node:fs';
import type { Express } from 'express';

const FAVICON = new URL('../console/assets/favicon.svg', import.meta.url);
const CONSOLE_STYLE = new URL('../console/assets/console.css', import.meta.url);

/** The consoles' stylesheet, which the 404 page uses too, at the path the console kit serves it on. */
export const CONSOLE_STYLE_PATH = '/console/assets/console.css';

/**
 * `/favicon.ico` and `/favicon.svg` on every service: browsers ask for the first on every page of a
 * port, and without an answer they log a 404 for each. The console's icon, as SVG (browsers read the
 * type, not the name). Also the consoles' stylesheet, for the 404 page.
 */
export function mountFavicon(app: Express): void {
  const icon = readFileSync(FAVICON);
  app.get(['/favicon.ico', '/favicon.svg'], (_req, res) => {
    res.set({ 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }).send(icon);
  });
  // A service with a console answers this path from its kit first; one without (none of its plugins has a
  // console) from here, so its 404 page looks as the consoles do.
  const style = readFileSync(CONSOLE_STYLE);
  app.get(CONSOLE_STYLE_PATH, (_req, res) => {
    res.set({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }).send(style);
  });
}
