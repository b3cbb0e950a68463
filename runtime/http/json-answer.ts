import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './security.js';

/**
 * A JSON answer written straight to the response: no ETag (express hashes every body it sends for one, a
 * tenth of a search's time over HTTP, and a search's answer carries its own `responseTime`, so a client could
 * rarely revalidate with it) and no content-type negotiation. For hot routes and for answers outside express.
 * Headers set before (CORS, Vary) are kept; HEAD requests get the headers without the body (node:http).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonBytes(res, status, JSON.stringify(body), headers);
}

/** The same answer, already serialised (an answer kept in a cache, say). */
export function sendJsonBytes(
  res: ServerResponse,
  status: number,
  json: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
}
