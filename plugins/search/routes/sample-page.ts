import { readFileSync } from 'node:fs';
import { type ApiRouter, httpErrors } from 'vela/plugin';
import type { SearchDomain } from './route-context.js';

const page = (name: string) => readFileSync(new URL(`../page/${name}`, import.meta.url));
const template = page('sample-page.html').toString('utf8');
// The page's script and stylesheet, read once; a fixed set of names, so no path reaches other files.
const ASSETS = new Map([
  ['sample-page.js', { body: page('sample-page.js'), type: 'text/javascript; charset=utf-8' }],
  ['sample-page.css', { body: page('sample-page.css'), type: 'text/css; charset=utf-8' }],
  // The chat box: it shows itself only when the site chats (GET /api/sn/<site>/chat, served by the genai plugin).
  ['sample-chat.js', { body: page('sample-chat.js'), type: 'text/javascript; charset=utf-8' }],
  ['sample-chat.css', { body: page('sample-chat.css'), type: 'text/css; charset=utf-8' }],
]);

// Only the page's own files run or style it: no inline script or style, so markup that a stored value
// might smuggle into the page cannot run. The runtime adds nosniff, Referrer-Policy and X-Frame-Options.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The sample search page: /sn/<site> renders what GET /api/sn/<site>/search answers and follows only
 * the links in it. Without a query it starts from the match-all search in the site's first locale.
 */
export function mountSamplePage(router: ApiRouter, { sites }: SearchDomain): void {
  router.raw.get('/sn/assets/:name', (req, res) => {
    const asset = ASSETS.get(String(req.params.name));
    if (!asset) throw httpErrors.notFound(`the sample page has no file named "${String(req.params.name).slice(0, 100)}"`);
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'no-cache' }).send(asset.body);
  });
  router.raw.get('/sn/:siteName', (req, res) => {
    const config = sites.get(String(req.params.siteName));
    const { site } = config;
    if (!('q' in req.query) || !('_setlocale' in req.query)) {
      const locale = typeof req.query._setlocale === 'string' && site.locales.includes(req.query._setlocale) ? req.query._setlocale : site.locales[0];
      return res.redirect(302, `/sn/${encodeURIComponent(site.name)}?q=*&_setlocale=${encodeURIComponent(locale ?? 'en_US')}`);
    }
    const html = template
      .replaceAll('__SITE__', escapeHtml(site.name))
      .replace('__HL_PRE__', escapeHtml(site.hlPre))
      .replace('__HL_POST__', escapeHtml(site.hlPost));
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.type('html').send(html);
  });
}
