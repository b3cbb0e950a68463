/**
 * Hop-by-hop headers (RFC 9110 §7.6.1, with the non-standard Keep-Alive and Proxy-Connection that clients
 * still send), lower case: they describe one connection, so a proxy never passes them on in either
 * direction. Headers a `Connection` header names are hop-by-hop too; a proxy drops those as it meets them.
 */
export const HOP_BY_HOP_HEADERS: readonly string[] = Object.freeze([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
