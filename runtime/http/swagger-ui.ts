import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express, Response } from 'express';
import { httpErrors } from '../errors.js';

export const SWAGGER_UI_PAGE = '/swagger-ui.html';
const FILES_PREFIX = '/swagger-ui/';

// Swagger UI renders with the service's own files only; it reads /v3/api-docs and tries requests on the
// same origin, and its stylesheet draws icons from data: URIs.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const OWN_FILES = new URL('./swagger-ui/', import.meta.url);
const distFolder = () => path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files the page loads, by name: a fixed list, so no request path reaches any other file. */
const FILES: Record<string, { from: 'dist' | 'own'; type: string }> = {
  'swagger-ui-bundle.js': { from: 'dist', type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { from: 'dist', type: 'text/css; charset=utf-8' },
  'vela-swagger-ui.js': { from: 'own', type: 'text/javascript; charset=utf-8' },
  'vela-swagger-ui.css': { from: 'own', type: 'text/css; charset=utf-8' },
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `/swagger-ui.html` on a service: Swagger UI (the local swagger-ui-dist package) on the service's
 * /v3/api-docs, with the Authorize button for its Key header and Basic credentials. Files are read on
 * first use and kept: the bundle is over a megabyte and most starts never serve it.
 */
export function mountSwaggerUi(app: Express, service: string): void {
  const cache = new Map<string, Buffer>();
  const read = (name: string, from: 'dist' | 'own') => {
    let body = cache.get(name);
    if (!body) {
      body = from === 'dist' ? readFileSync(path.join(distFolder(), name)) : readFileSync(new URL(name, OWN_FILES));
      cache.set(name, body);
    }
    return body;
  };
  const page = () =>
    read('swagger-ui.html', 'own')
      .toString('utf8')
      .replace('{{title}}', escapeHtml(`Vela ${service} service`));
  app.get(SWAGGER_UI_PAGE, (_req, res: Response) => {
    res.set({ 'Content-Security-Policy': PAGE_POLICY, 'Cache-Control': 'no-cache' }).type('html').send(page());
  });
  for (const alias of ['/swagger-ui', FILES_PREFIX, `${FILES_PREFIX}index.html`])
    app.get(alias, (_req, res) => res.redirect(302, SWAGGER_UI_PAGE));
  app.get(`${FILES_PREFIX}:name`, (req, res) => {
    const name = String(req.params.name);
    const file = Object.hasOwn(FILES, name) ? FILES[name]! : null;
    if (!file) throw httpErrors.notFound(`no Swagger UI file ${name}`);
    res.set({ 'Content-Type': file.type, 'Cache-Control': 'public, max-age=3600' }).send(read(name, file.from));
  });
}
