import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';

// RFC 9110 §7.6.1 hop-by-hop headers, plus what the gateway replaces: Host (the upstream's),
// Authorization (the gateway's bearer token is not the upstream's business), Expect (the
// gateway already answered 100-continue).
const REQUEST_DROPPED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'authorization', 'expect']);
const RESPONSE_DROPPED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Headers a `Connection` header names are hop-by-hop too. */
function connectionListed(value: string | string[] | undefined): Set<string> | null {
  if (!value) return null;
  const listed = (Array.isArray(value) ? value.join(',') : value).split(',').map((v) => v.trim().toLowerCase()).filter((v) => v && v !== 'close' && v !== 'keep-alive');
  return listed.length > 0 ? new Set(listed) : null;
}

/** The request headers to send upstream, with X-Forwarded-For, -Host and -Proto added. */
export function upstreamRequestHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const source = req.headers;
  const extra = connectionListed(source.connection);
  const out: OutgoingHttpHeaders = {};
  for (const name in source) {
    if (REQUEST_DROPPED.has(name) || extra?.has(name) || name.startsWith('x-forwarded-')) continue;
    out[name] = source[name];
  }
  const remote = req.socket.remoteAddress ?? '';
  const prior = source['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${remote}` : remote;
  // Host and scheme as this gateway saw them; a client's own X-Forwarded-Host/-Proto are not passed on.
  out['x-forwarded-host'] = source.host ?? '';
  out['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return out;
}

/** The upstream's response headers to pass to the client. */
export function clientResponseHeaders(source: IncomingHttpHeaders): OutgoingHttpHeaders {
  const extra = connectionListed(source.connection);
  const out: OutgoingHttpHeaders = {};
  for (const name in source) {
    if (RESPONSE_DROPPED.has(name) || extra?.has(name)) continue;
    out[name] = source[name];
  }
  return out;
}
