import { readFileSync } from 'node:fs';
import type { Express } from 'express';

const FAVICON = new URL('../console/assets/favicon.svg', import.meta.url);

/**
 * `/favicon.ico` and `/favicon.svg` on every service: browsers ask for the first on every page of a
 * port, and without an answer they log a 404 for each. The console's icon, as SVG (browsers read the
 * type, not the name).
 */
export function mountFavicon(app: Express): void {
  const icon = readFileSync(FAVICON);
  app.get(['/favicon.ico', '/favicon.svg'], (_req, res) => {
    res.set({ 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }).send(icon);
  });
}
