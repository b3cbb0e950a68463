import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { ApiRouter } from '../../../runtime/index.js';
import { consoleErrors } from './console-errors.js';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const folder = new URL('./assets/', import.meta.url);

/** The console's scripts and styles, read once: a fixed set of names, so no path can reach other files. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(folder)) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (!type) continue;
    const body = readFileSync(new URL(name, folder));
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

export function mountAssetRoutes(router: ApiRouter): void {
  const assets = loadAssets();
  router.get('/console/assets/:name', { hidden: true }, (req, res) => {
    const name = String(req.params.name);
    const asset = assets.get(name);
    if (!asset) throw consoleErrors.assetNotFound(name);
    // Revalidate every time: a restarted gateway with new files must never run stale scripts.
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'no-cache', ETag: asset.etag, 'X-Content-Type-Options': 'nosniff' });
    if (req.headers['if-none-match'] === asset.etag) return res.status(304).end();
    res.send(asset.body);
  });
}
