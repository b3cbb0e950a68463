import type { Request, Response } from 'express';
import { escapeHtml } from '../console/console-kit.js';
import { excerpt } from '../errors.js';
import { CONSOLE_STYLE_PATH } from './favicon.js';

/** Nothing runs; the only style is the consoles' stylesheet, a file of the service's own. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The answer to a browser's navigation to a path no route serves: a short page that says so and leads to
 * the service's landing page, where JSON would show a browser's raw text viewer. The path comes from the
 * address bar, so it is shortened and escaped.
 */
export function sendNotFoundPage(req: Request, res: Response, service: string): void {
  const asked = excerpt(req.path, 200);
  // The landing page itself may be missing (a service whose plugins have no console): no link to this page again.
  const home = req.path === '/' ? '' : `<a href="/">the ${escapeHtml(service)} service's start page</a> or `;
  const name = `<span class="logo" aria-hidden="true"></span>Vela ${escapeHtml(service)}`;
  const brand = home ? `<a class="brand" href="/">${name}</a>` : `<span class="brand">${name}</span>`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · Vela ${escapeHtml(service)} service</title>
<link rel="stylesheet" href="${CONSOLE_STYLE_PATH}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="topbar">
${brand}
</header>
<main id="main">
<section class="card not-found" aria-labelledby="not-found-title">
<h1 id="not-found-title">Not found</h1>
<p>The ${escapeHtml(service)} service has no page at <code>${escapeHtml(asked)}</code>.</p>
<p>Go to ${home}<a href="/swagger-ui.html">its API in Swagger UI</a>.</p>
</section>
</main>
</body>
</html>
`;
  res.status(404).set({ 'Content-Security-Policy': PAGE_POLICY, 'Cache-Control': 'no-cache' }).type('html').send(html);
}
