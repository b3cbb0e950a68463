import { readFileSync } from 'node:fs';
import { type ApiRouter, escapeHtml, httpErrors, type Request, type Response } from 'vela/plugin';
import { searchErrors } from '../errors.js';
import type { SearchDomain } from './route-context.js';

const page = (name: string) => readFileSync(new URL(`../page/${name}`, import.meta.url));
const template = page('sample-page.html').toString('utf8');
const missingTemplate = page('sample-page-missing.html').toString('utf8');
// The page's scripts and stylesheets, read once; a fixed set of names, so no path reaches other files.
const ASSETS = new Map([
  ['sample-page.js', { body: page('sample-page.js'), type: 'text/javascript; charset=utf-8' }],
  ['sample-page.css', { body: page('sample-page.css'), type: 'text/css; charset=utf-8' }],
  // What the page's scripts (ES modules) share: which URLs become links.
  ['sample-links.js', { body: page('sample-links.js'), type: 'text/javascript; charset=utf-8' }],
  // The search box's suggestions (GET /api/sn/<site>/ac), a combobox for keyboard and screen readers.
  ['sample-autocomplete.js', { body: page('sample-autocomplete.js'), type: 'text/javascript; charset=utf-8' }],
  // The chat box: it shows itself only when the site chats (GET /api/sn/<site>/chat, served by the genai plugin).
  ['sample-chat.js', { body: page('sample-chat.js'), type: 'text/javascript; charset=utf-8' }],
  ['sample-chat.css', { body: page('sample-chat.css'), type: 'text/css; charset=utf-8' }],
]);

// Only the page's own files run or style it: no inline script or style, so markup that a stored value
// might smuggle into the page cannot run. The runtime adds nosniff, Referrer-Policy and X-Frame-Options.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * An unknown site: a browser (which ranks HTML above JSON) gets a page that names what it asked for, an API
 * client the usual JSON error. The name comes from the URL, so it is shortened and escaped.
 */
function sendMissingSite(req: Request, res: Response, name: string): void {
  if (req.accepts(['json', 'html']) !== 'html') throw searchErrors.siteNotFound(name.slice(0, 100));
  res.status(404).setHeader('Content-Security-Policy', PAGE_POLICY);
  res.type('html').send(fillIn(missingTemplate, { __SITE__: name.slice(0, 100) }));
}

/**
 * Put escaped values in a page's `__NAME__` places. A function makes the replacement: a replacement
 * string would read `$&`, `` $` `` and `$'` in a value (a site name, highlight markers) as patterns
 * and copy parts of the template, unescaped, into the page.
 */
function fillIn(html: string, values: Record<string, string>): string {
  return html.replace(/__[A-Z_]+__/g, (place) => (Object.hasOwn(values, place) ? escapeHtml(values[place]!) : place));
}

/**
 * The sample search page: /sn/<site> renders what GET /api/sn/<site>/search answers and follows only
 * the links in it. Without a query it starts from the match-all search in the site's first locale.
 */
export function mountSamplePage(router: ApiRouter, { sites }: Pick<SearchDomain, 'sites'>): void {
  router.raw.get('/sn/assets/:name', (req, res) => {
    const asset = ASSETS.get(String(req.params.name));
    if (!asset)
      throw httpErrors.notFound(`the sample page has no file named "${String(req.params.name).slice(0, 100)}"`);
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'no-cache' }).send(asset.body);
  });
  router.raw.get('/sn/:siteName', (req, res) => {
    const config = sites.find(String(req.params.siteName));
    if (!config) return sendMissingSite(req, res, String(req.params.siteName));
    const { site } = config;
    if (!('q' in req.query) || !('_setlocale' in req.query)) {
      const locale =
        typeof req.query._setlocale === 'string' && site.locales.includes(req.query._setlocale)
          ? req.query._setlocale
          : site.locales[0];
      return res.redirect(
        302,
        `/sn/${encodeURIComponent(site.name)}?q=*&_setlocale=${encodeURIComponent(locale ?? 'en_US')}`,
      );
    }
    const html = fillIn(template, { __SITE__: site.name, __HL_PRE__: site.hlPre, __HL_POST__: site.hlPost });
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.type('html').send(html);
  });
}
