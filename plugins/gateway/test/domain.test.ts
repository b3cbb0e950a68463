import test from 'ava';
import type { Pool } from 'undici';
import { parseContext } from '../mappings/mapping-fields.js';
import { bucketOf, LatencyHistogram } from '../metrics/latency-histogram.js';
import { verifierMatches } from '../oauth/pkce.js';
import { clientResponseHeaders } from '../proxy/forwarded-headers.js';
import { matchRoute, type ProxyRoute, upstreamPath } from '../proxy/route-table.js';

test('a context is normalized and split into the name and sub-path it is called by', (t) => {
  t.deepEqual(parseContext('/proxy/github/openviglet/'), {
    context: '/proxy/github/openviglet',
    name: 'github',
    subPath: '/openviglet',
  });
  t.deepEqual(parseContext('/proxy/whole'), { context: '/proxy/whole', name: 'whole', subPath: '' });
  for (const bad of ['/github/x', '/proxy//x', '/proxy/console/x', '/proxy/API/x', '/proxy/a b/x', '/proxy/a/./b'])
    t.throws(() => parseContext(bad), undefined, bad);
});

test('a context whose sub-path the proxy could never serve is refused: encoded dot segments and broken % escapes', (t) => {
  for (const bad of [
    '/proxy/a/%2e%2e',
    '/proxy/a/%2E/b',
    '/proxy/a/b/..;x',
    '/proxy/a/b%',
    '/proxy/a/b%zz',
    '/proxy/a/%2',
  ]) {
    t.throws(() => parseContext(bad), { message: /^context must/ }, bad);
  }
  t.is(parseContext('/proxy/a/b%2Fc/v1..2').subPath, '/b%2Fc/v1..2');
});

function route(subPath: string, url: string): ProxyRoute {
  const u = new URL(url);
  return {
    mappingId: subPath,
    name: 'n',
    subPath,
    hostHeader: u.host,
    basePath: u.pathname.replace(/\/+$/, ''),
    fullPath: u.pathname,
    baseQuery: u.search.slice(1),
    timeoutMs: 1000,
    pool: undefined as unknown as Pool,
    slot: 0,
  };
}

test('the longest sub-path matching at a segment boundary serves a request', (t) => {
  const routes = [route('/v1/orders', 'http://h/o'), route('/v1', 'http://h/api'), route('', 'http://h/root')];
  t.is(matchRoute(routes, '/v1/orders/7')!.route.subPath, '/v1/orders');
  t.deepEqual(matchRoute(routes, '/v1/ordersx')!.remainder, '/ordersx');
  t.is(matchRoute(routes, '/v1x')!.route.subPath, '', '/v1x is not below /v1');
  t.is(matchRoute(routes.slice(0, 2), '/v2'), null);
});

test('the upstream path is the upstream URL plus the rest of the path, with both queries', (t) => {
  t.is(upstreamPath(route('/v1', 'http://h/api'), '/items/1', 'x=1'), '/api/items/1?x=1');
  t.is(upstreamPath(route('/v1', 'http://h/api/'), '', ''), '/api/');
  t.is(upstreamPath(route('/v1', 'http://h/api/'), '/', ''), '/api/');
  t.is(upstreamPath(route('/v1', 'http://h'), '', 'q=2'), '/?q=2');
  t.is(upstreamPath(route('/v1', 'http://h/search?key=abc'), '/more', 'q=2'), '/search/more?key=abc&q=2');
});

test('percentiles read from the log-scale histogram are within 2% of the exact ones, and merge across parts', (t) => {
  const samples = Array.from({ length: 1000 }, (_, i) => 1000 + i * 97); // 1 ms to ~98 ms, in µs
  const whole = new LatencyHistogram();
  const a = new LatencyHistogram();
  const b = new LatencyHistogram();
  samples.forEach((us, i) => {
    whole.add(bucketOf(us));
    (i % 2 ? a : b).add(bucketOf(us));
  });
  for (const p of [0.5, 0.95, 0.99]) {
    const exact = samples[Math.ceil(p * samples.length) - 1]! / 1000;
    t.true(Math.abs(whole.percentile(p)! - exact) / exact < 0.02, `p${p * 100}: ${whole.percentile(p)} vs ${exact}`);
  }
  const merged = new LatencyHistogram();
  merged.merge(a.toJSON());
  merged.merge(b);
  t.is(merged.total, 1000);
  t.is(merged.percentile(0.95), whole.percentile(0.95));
  t.is(new LatencyHistogram().percentile(0.5), null);
});

test('PKCE S256 accepts the RFC 7636 example verifier and nothing else', (t) => {
  t.true(verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'));
  t.false(
    verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
  );
  t.false(verifierMatches('short', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'));
});

test('response headers lose the hop-by-hop ones, including those the Connection header names', (t) => {
  const out = clientResponseHeaders([
    'Content-Type',
    'text/plain',
    'Connection',
    'keep-alive, X-Trace',
    'X-Trace',
    '1',
    'Keep-Alive',
    'timeout=5',
    'Transfer-Encoding',
    'chunked',
    'Set-Cookie',
    'a=1',
    'Set-Cookie',
    'b=2',
  ]);
  // Every answer relayed from an upstream is sandboxed (it is served from the console's origin).
  t.deepEqual(out, [
    'Content-Security-Policy',
    'sandbox',
    'Content-Type',
    'text/plain',
    'Set-Cookie',
    'a=1',
    'Set-Cookie',
    'b=2',
  ]);
  t.deepEqual(clientResponseHeaders(['Connection', 'keep-alive', 'X-A', '1']), [
    'Content-Security-Policy',
    'sandbox',
    'X-A',
    '1',
  ]);
});
