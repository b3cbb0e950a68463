import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';

/** The Basic challenge for HTTP clients (curl, scripts) that ask for credentials when they get one. */
export const BASIC_CHALLENGE = 'Basic realm="Vela", charset="UTF-8"';

/**
 * A request a browser made. Browsers send the Sec-Fetch-Site and Sec-Fetch-Dest metadata with every request
 * (navigations, fetch, images); HTTP libraries do not (Node's fetch sends only Sec-Fetch-Mode).
 */
export function fromBrowser(req: IncomingMessage): boolean {
  return req.headers['sec-fetch-site'] !== undefined || req.headers['sec-fetch-dest'] !== undefined;
}

/**
 * A request for a page: a GET or HEAD whose Accept header ranks HTML above JSON, as a browser's navigation
 * does. `*\/*` (curl, fetch) ranks JSON first, so API clients keep their JSON answers.
 */
export function wantsPage(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && req.accepts(['json', 'html']) === 'html';
}

/**
 * Ask for Basic credentials, except of a browser: a browser answers a challenge with its own login
 * dialog, which cannot sign out, never shows the sign-in page and pops up over the consoles' own requests.
 */
export function challengeBasic(req: IncomingMessage, res: ServerResponse): void {
  if (!fromBrowser(req)) res.setHeader('WWW-Authenticate', BASIC_CHALLENGE);
}
