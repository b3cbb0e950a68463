import { readdirSync, readFileSync } from 'node:fs';
import type { Response } from 'express';
import type { ConsoleUser } from './console-session.js';

export type Section = 'dashboard' | 'mapping' | 'app';

export interface PageView {
  title: string;
  /** The navigation entry to mark as current. */
  section?: Section;
  user: ConsoleUser | null;
  /** Name of a body template in templates/, its {{placeholders}} filled from `values` (escaped). */
  template: string;
  values?: Record<string, string>;
  /** Page script in assets/, loaded as an ES module. */
  script?: string;
}

// Every template, read once when the console module loads: no file I/O while answering a request.
const templates = new Map<string, string>(
  readdirSync(new URL('./templates/', import.meta.url))
    .filter((name) => name.endsWith('.html'))
    .map((name) => [name, readFileSync(new URL(`./templates/${name}`, import.meta.url), 'utf8')]),
);

function template(name: string): string {
  const text = templates.get(name);
  if (text === undefined) throw new Error(`the console has no template ${name}`);
  return text;
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fill `{{name}}` with escaped values and `{{{name}}}` with markup this module built itself. */
function fill(text: string, values: Record<string, string>, markup: Record<string, string> = {}): string {
  return text
    .replace(/\{\{\{(\w+)\}\}\}/g, (_m, key: string) => markup[key] ?? '')
    .replace(/\{\{(\w+)\}\}/g, (_m, key: string) => escapeHtml(values[key] ?? ''));
}

const NAV: Array<{ section: Section; href: string; label: string }> = [
  { section: 'dashboard', href: '/console/dashboard', label: 'Dashboard' },
  { section: 'mapping', href: '/console/mapping', label: 'Mappings' },
  { section: 'app', href: '/console/app', label: 'Apps' },
];

function navigation(view: PageView): string {
  if (!view.user) return view.template === 'login.html' ? '' : `<a class="signin-link" href="/console/login">Sign in</a>`;
  const links = NAV.map(({ section, href, label }) =>
    `<a href="${href}"${section === view.section ? ' aria-current="page"' : ''}>${label}</a>`).join('');
  return `<nav aria-label="Console">${links}</nav>
  <form class="signout" method="post" action="/console/logout">
    <input type="hidden" name="csrf" value="${escapeHtml(view.user.csrfToken)}">
    <span class="user" title="Signed in">${escapeHtml(view.user.username)}</span>
    <button type="submit" class="button subtle">Sign out</button>
  </form>`;
}

export function renderPage(view: PageView): string {
  const body = fill(template(view.template), view.values ?? {});
  const script = view.script ? `<script type="module" src="/console/assets/${view.script}"></script>` : '';
  return fill(template('layout.html'), {
    title: view.title,
    csrf: view.user?.csrfToken ?? '',
  }, { navigation: navigation(view), body, script });
}

/**
 * Console pages: their own scripts and styles only, never framed, never cached, and no Referer
 * leaving the page (receiver URLs carry codes and tokens).
 */
export function sendPage(res: Response, status: number, view: PageView): void {
  res.status(status)
    .set({
      'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    })
    .type('html')
    .send(renderPage(view));
}
