import { readFileSync } from 'node:fs';
import type { ApiRouter } from '../../../runtime/index.js';
import type { SearchDomain } from './route-context.js';

const template = readFileSync(new URL('../page/sample-page.html', import.meta.url), 'utf8');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
// JSON inside <script>: no "</script>" or "<!--" can end it early.
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The sample search page: /sn/<site> renders what GET /api/sn/<site>/search answers and follows only
 * the links in it. Without a query it starts from the match-all search in the site's first locale.
 */
export function mountSamplePage(router: ApiRouter, { sites }: SearchDomain): void {
  router.raw.get('/sn/:siteName', (req, res) => {
    const config = sites.get(String(req.params.siteName));
    const { site } = config;
    if (!('q' in req.query) || !('_setlocale' in req.query)) {
      const locale = typeof req.query._setlocale === 'string' && site.locales.includes(req.query._setlocale) ? req.query._setlocale : site.locales[0];
      return res.redirect(302, `/sn/${encodeURIComponent(site.name)}?q=*&_setlocale=${encodeURIComponent(locale ?? 'en_US')}`);
    }
    const html = template
      .replaceAll('__SITE__', escapeHtml(site.name))
      .replace('__SITE_JSON__', scriptJson(site.name))
      .replace('__MARKS__', `window.__velaMarks(${scriptJson(site.hlPre)}, ${scriptJson(site.hlPost)});`);
    res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    res.type('html').send(html);
  });
}
