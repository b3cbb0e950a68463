import type { IncomingMessage } from 'node:http';

// RFC 9110 §7.6.1 hop-by-hop headers, plus what the gateway replaces: Host (the upstream's),
// Authorization (the gateway's bearer token is not the upstream's business), Expect (the
// gateway already answered 100-continue) and the client's own X-Forwarded-Host and -Proto.
const REQUEST_DROPPED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'authorization', 'expect', 'x-forwarded-host', 'x-forwarded-proto']);
const RESPONSE_DROPPED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Headers a `Connection` header names are hop-by-hop too; null when it names none (the usual case). */
function connectionListed(value: string): Set<string> | null {
  if (value.length <= 10 && /^(keep-alive|close)$/i.test(value)) return null;
  const listed = value.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v && v !== 'close' && v !== 'keep-alive');
  return listed.length > 0 ? new Set(listed) : null;
}

/**
 * Copy raw headers (`[name, value, name, value, ...]`, as Node keeps them) minus the dropped ones,
 * keeping names' case and repeated headers as they came: no header object is built on the hot path.
 */
function filterRaw(raw: string[], dropped: Set<string>, out: string[], onForwardedFor?: (value: string) => void): string[] {
  let listed: Set<string> | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'connection') listed = connectionListed(raw[i + 1]!);
    if (dropped.has(name)) continue;
    if (onForwardedFor && name === 'x-forwarded-for') {
      onForwardedFor(raw[i + 1]!);
      continue;
    }
    out.push(raw[i]!, raw[i + 1]!);
  }
  if (!listed) return out;
  const kept: string[] = [];
  for (let i = 0; i < out.length; i += 2) if (!listed.has(out[i]!.toLowerCase())) kept.push(out[i]!, out[i + 1]!);
  return kept;
}

/**
 * The request headers to send upstream (raw form), with Host set and X-Forwarded-For, -Host and
 * -Proto added. A chunked body is re-framed in chunks on the upstream hop: Node would not chunk it
 * by itself for a method that usually has no body (DELETE, OPTIONS).
 */
export function upstreamRequestHeaders(req: IncomingMessage, upstreamHost: string, chunked: boolean): string[] {
  let prior = '';
  const out = filterRaw(req.rawHeaders, REQUEST_DROPPED, ['Host', upstreamHost], (value) => {
    prior = prior ? `${prior}, ${value}` : value;
  });
  const remote = req.socket.remoteAddress ?? '';
  // Host and scheme as this gateway saw them; a client's own X-Forwarded-Host/-Proto are not passed on.
  out.push(
    'X-Forwarded-For', prior ? `${prior}, ${remote}` : remote,
    'X-Forwarded-Host', req.headers.host ?? '',
    'X-Forwarded-Proto', (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
  );
  if (chunked) out.push('Transfer-Encoding', 'chunked');
  return out;
}

/** The upstream's response headers to pass to the client (raw form). */
export function clientResponseHeaders(rawHeaders: string[]): string[] {
  return filterRaw(rawHeaders, RESPONSE_DROPPED, []);
}
