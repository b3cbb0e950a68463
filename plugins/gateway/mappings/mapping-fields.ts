import { gatewayErrors } from '../errors.js';
import { hasDotSegment } from '../proxy/dot-segments.js';

/** First path segments the gateway itself answers, so no mapping may take them as its name. */
export const RESERVED_NAMES = new Set([
  'api',
  'console',
  'health',
  'v3',
  '.well-known',
  'proxy',
  'favicon.ico',
  'swagger-ui.html',
]);

const CONTEXT = /^\/proxy\/([A-Za-z0-9][A-Za-z0-9._~-]{0,99})((?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*)\/?$/;

export interface ParsedContext {
  /** The normalized context: `/proxy/<name>/<sub>` without a trailing slash. */
  context: string;
  name: string;
  /** `/<sub_path>` or '' when the mapping takes the whole name. */
  subPath: string;
}

/** Check a mapping's context and split it into the name and sub-path it is called by. */
export function parseContext(value: string): ParsedContext {
  const match = CONTEXT.exec(value);
  if (!match)
    throw gatewayErrors.invalidField(
      'context',
      `must look like /proxy/<mapping_name>/<sub_path> (letters, digits, ".", "_", "~", "-" in the name), got ${JSON.stringify(value)}`,
    );
  const name = match[1]!;
  const subPath = match[2] ?? '';
  if (RESERVED_NAMES.has(name.toLowerCase()))
    throw gatewayErrors.invalidField(
      'context',
      `must not use the mapping name "${name}": the gateway answers /${name} itself`,
    );
  if (/%(?![0-9A-Fa-f]{2})/.test(subPath))
    throw gatewayErrors.invalidField(
      'context',
      `must write "%" only as the start of a %XX escape, got ${JSON.stringify(value)}`,
    );
  // The proxy refuses such paths, so a context holding one could never be called.
  if (hasDotSegment(subPath))
    throw gatewayErrors.invalidField('context', 'must not contain "." or ".." segments (nor %2e%2e, ..%2f or ..;x)');
  return { context: `/proxy/${name}${subPath}`, name, subPath };
}

/** Check an upstream URL: absolute http(s), no credentials, no fragment. */
export function parseUpstreamUrl(value: string, field = 'url'): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw gatewayErrors.invalidField(
      field,
      `must be an absolute http:// or https:// URL, got ${JSON.stringify(value)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw gatewayErrors.invalidField(field, `must use http or https, got ${JSON.stringify(url.protocol.slice(0, -1))}`);
  if (url.username || url.password) throw gatewayErrors.invalidField(field, 'must not carry a user name or password');
  if (url.hash) throw gatewayErrors.invalidField(field, 'must not have a #fragment');
  return url;
}

/** A health-check path is requested on the upstream's origin: it must be an absolute path. */
export function checkHealthCheckPath(value: string | null): string | null {
  if (value === null || value === '') return null;
  // A backslash counts as "/" to the URL parser: "/\other.example/" would be checked on another host.
  if (!value.startsWith('/') || /^\/[/\\]/.test(value) || /[\s\\]/.test(value))
    throw gatewayErrors.invalidField(
      'healthCheckPath',
      `must be a path starting with "/" on the upstream's host (no "//", backslash or spaces), got ${JSON.stringify(value)}`,
    );
  return value;
}
