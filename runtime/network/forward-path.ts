import { VelaError } from '../errors.js';

/** A forwarded path refused before any lookup or connection: 403 naming the rule. */
export class ForwardPathRefused extends VelaError {
  constructor(
    readonly rule: string,
    detail: string,
  ) {
    super('path_refused', `refused by the proxy path rules (${rule}): ${detail}`, 403);
  }
}

/** Longest forwarded path and query string taken. */
export const MAX_FORWARDED_PATH = 4096;

/** Percent-decoding is applied this many times, so a double- or triple-encoded `..` is seen as what it becomes. */
const DECODE_ROUNDS = 3;

/**
 * The URL a reverse proxy sends a request to: the endpoint's scheme, host and port, the endpoint's path
 * followed by the forwarded path (the part of the request path after the proxy's own prefix, as it arrived,
 * percent-encoding kept), and the query string. Refused, before anything is resolved or connected:
 *
 * - `..` and `.` segments, written plainly or percent-encoded (once, twice or three times), also with
 *   `;parameters` after them (`..;x`, `.;`), which some servers read as the bare segment;
 * - empty segments (`//host` would be taken as a host by resolvers that treat the path as a URL);
 * - `@` (user info), backslashes (which WHATWG URL treats as slashes), control characters, malformed escapes;
 * - an absolute URL (`scheme:` as the first segment);
 * - with `allowedPrefixes`, a path outside them (compared decoded, on segment boundaries).
 *
 * The result is checked again after URL parsing: same origin as the endpoint, and a path under the endpoint's.
 */
export function forwardTarget(
  endpoint: string | URL,
  forwardedPath: string,
  query = '',
  allowedPrefixes: readonly string[] = [],
): URL {
  const base = new URL(endpoint);
  if (forwardedPath.length + query.length > MAX_FORWARDED_PATH) {
    throw new ForwardPathRefused(
      'too long',
      `the forwarded path and query have ${forwardedPath.length + query.length} characters; at most ${MAX_FORWARDED_PATH}`,
    );
  }
  if (forwardedPath !== '' && !forwardedPath.startsWith('/'))
    throw new ForwardPathRefused('relative path', 'the forwarded path must start with /');
  const forms = decodedForms(forwardedPath);
  for (const form of forms) checkForm(form);
  checkQuery(query);

  const decoded = forms[1] ?? forwardedPath;
  if (allowedPrefixes.length > 0 && !allowedPrefixes.some((prefix) => underPrefix(decoded, prefix))) {
    throw new ForwardPathRefused(
      'not an allowed path',
      `${JSON.stringify(decoded.slice(0, 200))} is under none of ${allowedPrefixes.join(', ')}`,
    );
  }

  const basePath = base.pathname.replace(/\/+$/, '');
  const target = new URL(`${base.origin}${basePath}${forwardedPath}${query ? `?${query}` : ''}`);
  if (target.origin !== base.origin)
    throw new ForwardPathRefused('another origin', `the target would be ${target.origin}, not ${base.origin}`);
  if (target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`)) {
    throw new ForwardPathRefused('path traversal', `the target path ${target.pathname} leaves ${basePath || '/'}`);
  }
  if (target.username || target.password)
    throw new ForwardPathRefused('user info', 'the target would carry a user name or password');
  return target;
}

/** The path as it came, then decoded once, twice, ... until it stops changing. */
function decodedForms(path: string): string[] {
  const forms = [path];
  let current = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      throw new ForwardPathRefused(
        'malformed escape',
        'the forwarded path has a % that is not followed by two hex digits',
      );
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

function checkForm(form: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(form))
    throw new ForwardPathRefused('control character', 'the forwarded path holds a control character');
  if (form.includes('\\'))
    throw new ForwardPathRefused('backslash', 'the forwarded path holds a backslash (some parsers read it as /)');
  if (form.includes('@')) throw new ForwardPathRefused('at sign', 'the forwarded path holds @ (user info in a URL)');
  const segments = form.split('/').slice(1);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(segments[0] ?? ''))
    throw new ForwardPathRefused('absolute URL', 'the forwarded path starts with a URL scheme');
  if (form.startsWith('//') || segments.slice(0, -1).some((s) => s === '')) {
    throw new ForwardPathRefused('empty segment', 'the forwarded path holds // (a host, to some parsers)');
  }
  // Servers that read `;parameters` in a segment (Tomcat, Jetty, Spring) take `..;x` as `..`: the name before
  // the first `;` is what they see.
  const names = segments.map((s) => s.split(';', 1)[0]);
  if (names.some((name) => name === '..' || name === '.'))
    throw new ForwardPathRefused('path traversal', 'the forwarded path holds a . or .. segment');
  if (names.slice(0, -1).some((name, i) => name === '' && segments[i] !== '')) {
    throw new ForwardPathRefused(
      'empty segment',
      'the forwarded path holds a segment of parameters only (;x), an empty segment to some servers',
    );
  }
}

function checkQuery(query: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f#]/.test(query))
    throw new ForwardPathRefused('control character', 'the query string holds a control character or #');
}

function underPrefix(path: string, prefix: string): boolean {
  const p = prefix.replace(/\/+$/, '');
  return p === '' || path === p || path.startsWith(`${p}/`);
}
