import type { ApiRouter } from '../../../runtime/index.js';
import { consoleUser, HOME, signInLocation, type ConsoleDeps } from './console-session.js';
import { sendPage, type Section } from './render-page.js';

interface ConsolePage {
  path: string;
  title: string;
  section: Section;
  template: string;
  script: string;
}

// The administrator's pages. Each is an HTML shell whose script reads and writes the admin JSON API
// (/api/v2/...) with the session cookie and the page's CSRF token, exactly as any API client would.
// Order matters: "/new" before "/:id".
const PAGES: ConsolePage[] = [
  { path: '/console/dashboard', title: 'Dashboard', section: 'dashboard', template: 'dashboard.html', script: 'dashboard.js' },
  { path: '/console/mapping', title: 'Mappings', section: 'mapping', template: 'mapping-list.html', script: 'mapping-list.js' },
  { path: '/console/mapping/new', title: 'New mapping', section: 'mapping', template: 'mapping-form.html', script: 'mapping-form.js' },
  { path: '/console/mapping/:mappingId', title: 'Edit mapping', section: 'mapping', template: 'mapping-form.html', script: 'mapping-form.js' },
  { path: '/console/app', title: 'Apps', section: 'app', template: 'app-list.html', script: 'app-list.js' },
  { path: '/console/app/new', title: 'New app', section: 'app', template: 'app-new.html', script: 'app-new.js' },
  { path: '/console/app/:appId', title: 'App details', section: 'app', template: 'app-details.html', script: 'app-details.js' },
  { path: '/console/app/:appId/keys', title: 'Keys and Access Tokens', section: 'app', template: 'app-keys.html', script: 'app-keys.js' },
];

export function mountPageRoutes(router: ApiRouter, { accounts }: ConsoleDeps): void {
  // The gateway's own address leads a browser to the console, as the original's did.
  router.get('/', { hidden: true }, (_req, res) => res.redirect(302, HOME));
  router.get('/console', { hidden: true }, (_req, res) => res.redirect(302, HOME));
  router.get('/console/', { hidden: true }, (_req, res) => res.redirect(302, HOME));
  for (const page of PAGES) {
    router.get(page.path, { hidden: true, summary: `Console: ${page.title}` }, async (req, res) => {
      const user = await consoleUser(req, accounts);
      if (!user) return res.redirect(302, signInLocation(req));
      const params = req.params as Record<string, string | undefined>;
      sendPage(res, 200, {
        title: page.title,
        section: page.section,
        user,
        template: page.template,
        script: page.script,
        values: { mappingId: params.mappingId ?? '', appId: params.appId ?? '' },
      });
    });
  }
}
