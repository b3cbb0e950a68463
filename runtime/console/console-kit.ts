import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { type Accounts, readCookie, SESSION_COOKIE } from '../auth/accounts.js';
import { sameSecret } from '../auth/secret-digest.js';
import { VelaError } from '../errors.js';
import type { ApiRouter } from '../http/api-router.js';
import { sessionCookie } from '../http/session-routes.js';
import { consoleErrors } from './console-errors.js';

/**
 * What every service's console shares: the sign-in form (login CSRF, the runtime's administrator and its
 * password limits, the session cookie), sign-out, the session check and redirect of pages, the page
 * layout with its navigation, HTML escaping, the page policy, the static files, and the browser side
 * (`console.js`: the admin API client, DOM building, dialogs; `console.css`). A console is a ConsoleKit
 * with its product name, navigation, templates and assets, and the pages it mounts; each page is an HTML
 * shell whose script drives the service's admin JSON API as any client would.
 */

export const CONSOLE_PREFIX = '/console/';
export const CONSOLE_SIGN_IN = '/console/login';
export const CONSOLE_SIGN_OUT = '/console/logout';
export const CONSOLE_ASSETS = '/console/assets/';

// A console page runs only the console's own files and is never framed; the runtime adds nosniff,
// X-Frame-Options and `Referrer-Policy: no-referrer` to every answer.
export const CONSOLE_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// Login CSRF (double submit): the sign-in page sets this cookie and puts the same value in its form,
// so another site cannot sign a browser in to an account of its choosing.
const SIGN_IN_COOKIE = 'vela_console_signin';

/** The signed-in administrator of a console request, with the CSRF token its forms and API writes carry. */
export interface ConsoleUser {
  username: string;
  csrfToken: string;
}

export interface ConsoleNavItem {
  section: string;
  href: string;
  label: string;
  /**
   * An API path (as in /v3/api-docs, e.g. `/api/integration`) the page needs: the entry stays hidden until
   * the browser finds that path in the service's API description, so a page of a plugin that is not
   * loaded is never offered.
   */
  requires?: string;
}

export interface ConsoleOptions {
  /** The product name, in the top bar and every title: "Vela Gateway". */
  product: string;
  /** Where a signed-in administrator lands: `/`, `/console` and sign-in lead there. */
  home: string;
  navigation: ConsoleNavItem[];
  /** The console's page templates (`{{value}}` escaped, `{{> name.html}}` another of them). */
  templates: URL;
  /** The console's scripts, styles and images (served with the kit's own under /console/assets/). */
  assets: URL;
  /** Its stylesheets in assets/, after the kit's console.css. */
  styles?: string[];
  /** The line under "Sign in". */
  signInHint: string;
}

export interface ConsoleView {
  title: string;
  /** The navigation entry to mark as current. */
  section?: string;
  user: ConsoleUser | null;
  /** A body template of the console, its {{placeholders}} filled from `values` (escaped). */
  template: string;
  values?: Record<string, string>;
  /** Page script in the assets, loaded as an ES module. */
  script?: string;
  /** The page's tabs, and its own path among theirs; their path parameters are filled from `values`. */
  tabs?: ConsoleTabs;
  path?: string;
}

/**
 * Tabs between the pages about one thing (a site, an app): each tab is the path of one of those pages,
 * with the same parameters. A page that has tabs shows them where its template says `{{{tabs}}}`, its own
 * tab marked as the current page.
 */
export interface ConsoleTabs {
  /** What the tabs are about, the accessible name of their navigation: "Site". */
  label: string;
  /**
   * `requires`: an API path the tab's page needs, as for a navigation entry (hidden until the API description lists
   * it).
   */
  tabs: { label: string; path: string; requires?: string }[];
}

export interface ConsolePage {
  path: string;
  title: string;
  section: string;
  template: string;
  script: string;
  /** Its tabs, or the label of a tab set that pages of the console it joins declare ("Site"). */
  tabs?: ConsoleTabs | string;
}

/**
 * What a plugin adds to the console of another plugin on its service: its pages (mounted on its own router, so a
 * runtime without the plugin has none of them), their templates and assets (beside the console's, names not
 * shared), navigation entries (after the console's own, by label) and tabs added to the console's tab sets.
 */
export interface ConsoleExtension {
  /** Its page templates; they may use the console's and the kit's as partials. */
  templates: URL;
  /** Its scripts, served under /console/assets/ with the console's; they may import the console's and the kit's. */
  assets: URL;
  pages: ConsolePage[];
  navigation?: ConsoleNavItem[];
  /** Tabs for the console's tab sets, by the set's label (`to: 'Site'`), after the set's own. */
  tabs?: (ConsoleTabs['tabs'][number] & { to: string })[];
}

/** The console a plugin offers the other plugins of its service (as a service of its own, e.g. `search.console`). */
export interface ConsoleExtensions {
  extend(router: ApiRouter, extension: ConsoleExtension): void;
}

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fill `{{name}}` with escaped values and `{{{name}}}` with markup the kit built itself. */
function fill(text: string, values: Record<string, string>, markup: Record<string, string> = {}): string {
  return text
    .replace(/\{\{\{(\w+)\}\}\}/g, (_m, key: string) => markup[key] ?? '')
    .replace(/\{\{(\w+)\}\}/g, (_m, key: string) => escapeHtml(values[key] ?? ''));
}

/**
 * Markup pages share. `{{> name.html}}` in a template stands for that template of the console or of the kit,
 * `{{> name.html key="text"}}` with the partial's `{{key}}` filled (escaped), and `{{#> name.html key="text"}}...
 * {{/name.html}}` also with the markup between in place of the partial's `{{> @block}}` (a table's header cells, a
 * dialog's fields). A partial's other `{{placeholders}}` are the page's values.
 */
const PARTIAL_ARGS = '((?:\\s+\\w+="[^"]*")*)';
const PARTIAL = new RegExp(`\\{\\{>\\s*([\\w.-]+)${PARTIAL_ARGS}\\s*\\}\\}`, 'g');
const BLOCK_PARTIAL = new RegExp(`\\{\\{#>\\s*([\\w.-]+)${PARTIAL_ARGS}\\s*\\}\\}([\\s\\S]*?)\\{\\{/\\1\\}\\}`, 'g');
const PARTIAL_ARG = /(\w+)="([^"]*)"/g;
const PARTIAL_BLOCK = '{{> @block}}';
// Partials may include partials; deeper than this is a loop.
const MAX_PARTIAL_DEPTH = 8;

/** The tabs' navigation, with the page at `current` marked; `:name` in a tab's path is the value `name`. */
function tabsMarkup({ label, tabs }: ConsoleTabs, current: string | undefined, values: Record<string, string>): string {
  const links = tabs.map(({ label: tab, path, requires }) => {
    const href = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
    const gate = requires ? ` data-requires="${escapeHtml(requires)}" hidden` : '';
    return `\n  <a href="${escapeHtml(href)}"${path === current ? ' aria-current="page"' : ''}${gate}>${escapeHtml(tab)}</a>`;
  });
  return `<nav class="tabs" aria-label="${escapeHtml(label)}">${links.join('')}\n</nav>`;
}

/** Every file of a folder with one of these extensions, read once: no file I/O while answering. */
function readFolder(folder: URL, extensions: string[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(folder)) {
    if (extensions.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts'))
      files.set(name, readFileSync(new URL(name, folder)));
  }
  return files;
}

const KIT_TEMPLATES = new URL('./templates/', import.meta.url);
const KIT_ASSETS = new URL('./assets/', import.meta.url);
const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Where to go after signing in: only a console path on this service, so the sign-in form can never be
 * turned into an open redirect (`//evil.example`, `/\evil.example`, `https://...`, `/console/../x` all go home).
 */
export function safeNext(value: unknown, home: string): string {
  // Dot segments (plain or percent-encoded) would climb out of /console/ once the browser resolves them.
  if (typeof value !== 'string' || !value.startsWith(CONSOLE_PREFIX) || /[\\\s]|\.\.|%2e/i.test(value)) return home;
  return value.startsWith(CONSOLE_SIGN_IN) ? home : value;
}

const wantsJson = (req: Request) => req.accepts(['html', 'json']) === 'json';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function readAssets(folder: URL): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, body] of readFolder(folder, Object.keys(ASSET_TYPES))) {
    const type = ASSET_TYPES[name.slice(name.lastIndexOf('.'))]!;
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

const readTemplates = (folder: URL) =>
  new Map([...readFolder(folder, ['.html'])].map(([name, body]) => [name, body.toString('utf8')]));

/** Add files of an extension, refusing a name the console already has: no plugin replaces another's page. */
function addNew<T>(to: Map<string, T>, files: Map<string, T>, what: string): void {
  for (const name of files.keys()) if (to.has(name)) throw new Error(`the console already has the ${what} ${name}`);
  for (const [name, file] of files) to.set(name, file);
}

export class ConsoleKit implements ConsoleExtensions {
  private readonly templates: Map<string, string>;
  private readonly assets: Map<string, Asset>;
  /** The tab sets of the console's pages, by label, and the tabs extensions add to them. */
  private readonly tabSets = new Map<string, ConsoleTabs>();
  private readonly addedTabs = new Map<string, ConsoleTabs['tabs']>();
  private readonly addedNavigation: ConsoleNavItem[] = [];

  constructor(
    private readonly accounts: Accounts,
    private readonly options: ConsoleOptions,
  ) {
    // The console's own templates may not replace the kit's layout and sign-in page; its files may replace the kit's.
    this.templates = new Map([...readTemplates(options.templates), ...readTemplates(KIT_TEMPLATES)]);
    this.assets = new Map([...readAssets(KIT_ASSETS), ...readAssets(options.assets)]);
  }

  get home(): string {
    return this.options.home;
  }

  async user(req: Request): Promise<ConsoleUser | null> {
    const session = await this.accounts.findSession(readCookie(req.headers.cookie, SESSION_COOKIE));
    return session ? { username: session.username, csrfToken: session.csrfToken } : null;
  }

  /** The sign-in page that brings the browser back to this request's page afterwards. */
  signInLocation(req: Request): string {
    return `${CONSOLE_SIGN_IN}?next=${encodeURIComponent(safeNext(req.originalUrl, this.options.home))}`;
  }

  render(view: ConsoleView): string {
    const values = view.values ?? {};
    const template = this.expand(this.template(view.template));
    const body = fill(template, values, { tabs: view.tabs ? tabsMarkup(view.tabs, view.path, values) : '' });
    const script = view.script
      ? `<script type="module" src="${CONSOLE_ASSETS}${escapeHtml(view.script)}"></script>`
      : '';
    const styles = ['console.css', ...(this.options.styles ?? [])]
      .map((name) => `<link rel="stylesheet" href="${CONSOLE_ASSETS}${escapeHtml(name)}">`)
      .join('\n');
    return fill(
      this.template('layout.html'),
      { title: view.title, product: this.options.product, home: this.options.home, csrf: view.user?.csrfToken ?? '' },
      { navigation: this.navigation(view), body, script, styles },
    );
  }

  /** A console page, with its content security policy, never cached. */
  send(res: Response, status: number, view: ConsoleView): void {
    res
      .status(status)
      .set({ 'Content-Security-Policy': CONSOLE_PAGE_POLICY, 'Cache-Control': 'no-store' })
      .type('html')
      .send(this.render(view));
  }

  /**
   * Mount the console: its files, sign-in and sign-out, `/`, `/console` and `/console/` leading home, and
   * the pages. A page without a session sends a browser to sign-in (a redirect, never a Basic challenge);
   * a client that asks for JSON gets 401. Page path parameters are handed to the template as values.
   */
  mount(router: ApiRouter, pages: ConsolePage[]): void {
    this.mountAssets(router);
    this.mountSignIn(router);
    router.useSignInPage(CONSOLE_SIGN_IN);
    for (const path of ['/', '/console', CONSOLE_PREFIX]) {
      router.get(path, { access: 'public', hidden: true }, (_req, res) => res.redirect(302, this.options.home));
    }
    for (const page of pages) this.mountPage(router, page);
  }

  /**
   * Pages of another plugin on this console: mounted on that plugin's router, with its files beside the console's,
   * its navigation entries and the tabs it adds to the console's tab sets.
   */
  extend(router: ApiRouter, extension: ConsoleExtension): void {
    addNew(this.templates, readTemplates(extension.templates), 'template');
    addNew(this.assets, readAssets(extension.assets), 'file');
    this.addedNavigation.push(...(extension.navigation ?? []));
    this.addedNavigation.sort((a, b) => a.label.localeCompare(b.label));
    for (const { to, ...tab } of extension.tabs ?? []) this.addedTabs.set(to, [...(this.addedTabs.get(to) ?? []), tab]);
    for (const page of extension.pages) this.mountPage(router, page);
  }

  private mountPage(router: ApiRouter, page: ConsolePage): void {
    if (typeof page.tabs === 'object') this.tabSets.set(page.tabs.label, page.tabs);
    router.get(page.path, { access: 'public', hidden: true, summary: `Console: ${page.title}` }, async (req, res) => {
      const user = await this.user(req);
      if (!user) {
        if (wantsJson(req)) throw consoleErrors.signedOut();
        return res.redirect(302, this.signInLocation(req));
      }
      const values: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.params as Record<string, unknown>)) values[name] = text(value);
      const { title, section, template, script, path } = page;
      this.send(res, 200, { title, section, user, template, script, values, tabs: this.tabsOf(page), path });
    });
  }

  /** A page's tabs with those extensions added to its set. */
  private tabsOf(page: ConsolePage): ConsoleTabs | undefined {
    if (!page.tabs) return undefined;
    const set = typeof page.tabs === 'string' ? this.tabSets.get(page.tabs) : page.tabs;
    if (!set) throw new Error(`the console has no tab set ${page.tabs as string}`);
    return { label: set.label, tabs: [...set.tabs, ...(this.addedTabs.get(set.label) ?? [])] };
  }

  /** A template with its partials in place (see PARTIAL). */
  private expand(text: string, depth = 0): string {
    if (depth > MAX_PARTIAL_DEPTH) throw new Error(`console partials nest deeper than ${MAX_PARTIAL_DEPTH}`);
    const partial = (name: string, args: string, block: string) => {
      const values = new Map([...args.matchAll(PARTIAL_ARG)].map(([, key, value]) => [key!, value!]));
      // The arguments fill the partial's own text; the block is the page's, left for the page's values.
      const body = this.template(name)
        .replace(/\{\{(\w+)\}\}/g, (found, key: string) => (values.has(key) ? escapeHtml(values.get(key)!) : found))
        .replace(PARTIAL_BLOCK, () => block);
      return this.expand(body, depth + 1);
    };
    return text
      .replace(BLOCK_PARTIAL, (_m, name: string, args: string, block: string) => partial(name, args, block))
      .replace(PARTIAL, (_m, name: string, args: string) => partial(name, args, ''));
  }

  private template(name: string): string {
    const found = this.templates.get(name);
    if (found === undefined) throw new Error(`the console has no template ${name}`);
    return found;
  }

  private navigation(view: ConsoleView): string {
    if (!view.user)
      return view.template === 'login.html' ? '' : `<a class="signin-link" href="${CONSOLE_SIGN_IN}">Sign in</a>`;
    const links = [...this.options.navigation, ...this.addedNavigation]
      .map(({ section, href, label, requires }) => {
        const current = section === view.section ? ' aria-current="page"' : '';
        const gate = requires ? ` data-requires="${escapeHtml(requires)}" hidden` : '';
        return `<a href="${escapeHtml(href)}"${current}${gate}>${escapeHtml(label)}</a>`;
      })
      .join('');
    return `<button type="button" class="nav-toggle" aria-expanded="false" aria-controls="console-menu">Menu</button>
  <div class="nav-panel" id="console-menu">
  <nav aria-label="Console">${links}</nav>
  <form class="signout" method="post" action="${CONSOLE_SIGN_OUT}">
    <input type="hidden" name="csrf" value="${escapeHtml(view.user.csrfToken)}">
    <span class="user" title="Signed in">${escapeHtml(view.user.username)}</span>
    <button type="submit" class="button subtle">Sign out</button>
  </form>
  </div>`;
  }

  /**
   * The console's files, the kit's and those of extensions, read once: a fixed set of names, so no path can reach
   * other files.
   */
  private mountAssets(router: ApiRouter): void {
    router.get(`${CONSOLE_ASSETS}:name`, { access: 'public', hidden: true }, (req, res) => {
      const name = String(req.params.name);
      const asset = this.assets.get(name);
      if (!asset) throw consoleErrors.assetNotFound(name);
      // Revalidate every time: a restarted service with new files must never run stale scripts.
      res.set({ 'Content-Type': asset.type, 'Cache-Control': 'no-cache', ETag: asset.etag });
      if (req.headers['if-none-match'] === asset.etag) return res.status(304).end();
      res.send(asset.body);
    });
  }

  private signInPage(
    res: Response,
    status: number,
    options: { next: string; username?: string; message?: string },
  ): void {
    const token = randomBytes(24).toString('base64url');
    res.append(
      'Set-Cookie',
      `${SIGN_IN_COOKIE}=${token}; Path=${CONSOLE_SIGN_IN}; HttpOnly; SameSite=Strict; Max-Age=3600${res.req.secure ? '; Secure' : ''}`,
    );
    this.send(res, status, {
      title: 'Sign in',
      user: null,
      template: 'login.html',
      values: {
        csrf: token,
        next: options.next,
        hint: this.options.signInHint,
        username: options.username ?? '',
        message: options.message ?? '',
        messageHidden: options.message ? '' : 'hidden',
      },
    });
  }

  private mountSignIn(router: ApiRouter): void {
    const { accounts } = this;
    const hidden = { access: 'public', hidden: true, validate: false } as const;
    router.get(CONSOLE_SIGN_IN, { ...hidden, summary: 'Console sign-in page' }, async (req, res) => {
      const next = safeNext(req.query.next, this.options.home);
      if (await this.user(req)) return res.redirect(303, next);
      this.signInPage(res, 200, { next });
    });

    router.post(
      CONSOLE_SIGN_IN,
      { ...hidden, summary: 'Sign the administrator in to the console (form: username, password, csrf, next)' },
      async (req, res) => {
        const form = (req.body ?? {}) as Record<string, unknown>;
        const next = safeNext(form.next, this.options.home);
        const username = text(form.username);
        const expected = readCookie(req.headers.cookie, SIGN_IN_COOKIE);
        const refuse = (error: VelaError, message: string) => {
          if (wantsJson(req)) throw error;
          this.signInPage(res, error.status, { next, username, message });
        };
        if (!expected || !text(form.csrf) || !sameSecret(expected, text(form.csrf))) {
          return refuse(consoleErrors.signInCsrf(), 'The sign-in form had expired. Please sign in again.');
        }
        if (!username || !text(form.password))
          return refuse(consoleErrors.missingCredentials(), 'Enter the user name and the password.');
        // The runtime's accounts count failures by address and user name, as for every way of giving a password.
        let account: Awaited<ReturnType<Accounts['authenticate']>>;
        try {
          account = await accounts.authenticate(username, text(form.password), req.ip);
        } catch (error) {
          if (!(error instanceof VelaError) || error.status !== 429) throw error;
          const wait = Number(error.headers?.['Retry-After'] ?? 60);
          res.setHeader('Retry-After', String(wait));
          return refuse(
            error,
            `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`,
          );
        }
        if (!account) return refuse(consoleErrors.wrongCredentials(), 'The user name or password is not right.');
        const session = await accounts.createSession(account);
        const maxAge = Math.round((Date.parse(session.expiresAt) - Date.now()) / 1000);
        res.append('Set-Cookie', sessionCookie(session.token, maxAge, req.secure));
        res.append('Set-Cookie', `${SIGN_IN_COOKIE}=; Path=${CONSOLE_SIGN_IN}; HttpOnly; SameSite=Strict; Max-Age=0`);
        res.redirect(303, next);
      },
    );

    router.post(CONSOLE_SIGN_OUT, { ...hidden, summary: 'Sign out of the console (form: csrf)' }, async (req, res) => {
      const user = await this.user(req);
      if (user) {
        const csrf = text((req.body as { csrf?: unknown } | undefined)?.csrf);
        if (!csrf || !sameSecret(csrf, user.csrfToken)) throw consoleErrors.sessionCsrf();
        await accounts.deleteSession(readCookie(req.headers.cookie, SESSION_COOKIE)!);
      }
      res.append('Set-Cookie', sessionCookie('', 0, req.secure));
      res.redirect(303, CONSOLE_SIGN_IN);
    });
  }
}
