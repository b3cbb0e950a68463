import type { IncomingMessage } from 'node:http';
import { HOP_BY_HOP_HEADERS, VELA_COOKIE_PREFIX, VELA_CREDENTIAL_HEADERS } from 'vela/plugin';

// Hop-by-hop headers, plus what the gateway replaces: Host (the upstream's), Expect (the gateway already
// answered 100-continue) and the client's own X-Forwarded-Host and -Proto; and Vela's own credentials
// (Authorization, which holds the gateway's bearer token, Key, X-CSRF-Token): an upstream that received
// them could replay them against Vela's services.
const REQUEST_DROPPED = new Set([
  ...HOP_BY_HOP_HEADERS,
  'host',
  'expect',
  'x-forwarded-host',
  'x-forwarded-proto',
  ...VELA_CREDENTIAL_HEADERS,
]);
const RESPONSE_DROPPED = new Set(HOP_BY_HOP_HEADERS);

/**
 * Whether one cookie of a Cookie header, or the name-value part of a Set-Cookie, is Vela's. Leading `=`
 * signs count as spaces: a browser stores `Set-Cookie: =vela_session=x` as a nameless cookie and sends it
 * back as `vela_session=x`.
 */
function isVelaCookie(pair: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && (pair.charCodeAt(i) <= 32 || pair.charCodeAt(i) === 61) /* space, tab, = */) i++;
  return pair.startsWith(VELA_COOKIE_PREFIX, i) && i + VELA_COOKIE_PREFIX.length <= to;
}

/** A Cookie header without Vela's cookies ('' when none is left); other cookies go through as they came. */
function withoutVelaCookies(header: string): string {
  if (!header.includes(VELA_COOKIE_PREFIX)) return header;
  let kept = '';
  let from = 0;
  while (from <= header.length) {
    let to = header.indexOf(';', from);
    if (to < 0) to = header.length;
    if (!isVelaCookie(header, from, to)) {
      const cookie = header.slice(from, to).trim();
      if (cookie) kept = kept ? `${kept}; ${cookie}` : cookie;
    }
    from = to + 1;
  }
  return kept;
}

/** A Set-Cookie that would set (or overwrite) one of Vela's cookies becomes '', so it is not passed on. */
function unlessVelaCookie(setCookie: string): string {
  if (!setCookie.includes(VELA_COOKIE_PREFIX)) return setCookie;
  const end = setCookie.indexOf(';');
  return isVelaCookie(setCookie, 0, end < 0 ? setCookie.length : end) ? '' : setCookie;
}

/** What one direction drops, and the cookie header it rewrites (to '' when nothing of it may pass). */
interface Direction {
  dropped: Set<string>;
  cookieHeader: string;
  cookies: (value: string) => string;
}

const TO_UPSTREAM: Direction = { dropped: REQUEST_DROPPED, cookieHeader: 'cookie', cookies: withoutVelaCookies };
const TO_CLIENT: Direction = { dropped: RESPONSE_DROPPED, cookieHeader: 'set-cookie', cookies: unlessVelaCookie };

/** Headers a `Connection` header names are hop-by-hop too; null when it names none (the usual case). */
function connectionListed(value: string): Set<string> | null {
  if (value.length <= 10 && /^(keep-alive|close)$/i.test(value)) return null;
  const listed = value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v && v !== 'close' && v !== 'keep-alive');
  return listed.length > 0 ? new Set(listed) : null;
}

/**
 * Copy raw headers (`[name, value, name, value, ...]`, as Node keeps them) minus the dropped ones,
 * keeping names' case and repeated headers as they came: no header object is built on the hot path.
 */
function filterRaw(
  raw: string[],
  direction: Direction,
  out: string[],
  onForwardedFor?: (value: string) => void,
): string[] {
  let listed: Set<string> | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'connection') listed = connectionListed(raw[i + 1]!);
    if (direction.dropped.has(name)) continue;
    if (onForwardedFor && name === 'x-forwarded-for') {
      onForwardedFor(raw[i + 1]!);
      continue;
    }
    const value = name === direction.cookieHeader ? direction.cookies(raw[i + 1]!) : raw[i + 1]!;
    if (value) out.push(raw[i]!, value);
  }
  if (!listed) return out;
  const kept: string[] = [];
  for (let i = 0; i < out.length; i += 2) if (!listed.has(out[i]!.toLowerCase())) kept.push(out[i]!, out[i + 1]!);
  return kept;
}

/**
 * The request headers to send upstream (raw form), with Host set and X-Forwarded-For, -Host and
 * -Proto added. No framing header: undici frames the body itself (Content-Length when the client
 * sent one, chunks otherwise, whatever the method).
 */
export function upstreamRequestHeaders(req: IncomingMessage, upstreamHost: string): string[] {
  let prior = '';
  const out = filterRaw(req.rawHeaders, TO_UPSTREAM, ['Host', upstreamHost], (value) => {
    prior = prior ? `${prior}, ${value}` : value;
  });
  const remote = req.socket.remoteAddress ?? '';
  // Host and scheme as this gateway saw them; a client's own X-Forwarded-Host/-Proto are not passed on.
  out.push(
    'X-Forwarded-For',
    prior ? `${prior}, ${remote}` : remote,
    'X-Forwarded-Host',
    req.headers.host ?? '',
    'X-Forwarded-Proto',
    (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
  );
  return out;
}

/**
 * An upstream's answer is served from the gateway's origin, which is also the console's: a page an
 * upstream returns could call the admin API with the administrator's session. `sandbox` makes a browser
 * treat it as an opaque origin (no same-origin requests, no cookies of this site), whatever the upstream
 * says; CSP headers add up, so the upstream's own policy still applies too. API clients ignore it.
 */
const SANDBOX = ['Content-Security-Policy', 'sandbox'];

/**
 * The upstream's response headers to pass to the client (raw form). undici hands them over as bytes;
 * latin1 keeps every byte as it came, as Node's own parser does (and as Node writes them back).
 */
export function clientResponseHeaders(rawHeaders: readonly (Buffer | string)[]): string[] {
  const raw: string[] = new Array(rawHeaders.length);
  for (let i = 0; i < rawHeaders.length; i++) {
    const header = rawHeaders[i]!;
    raw[i] = typeof header === 'string' ? header : header.toString('latin1');
  }
  return filterRaw(raw, TO_CLIENT, [...SANDBOX]);
}
