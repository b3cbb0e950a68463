import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { OutboundGuard } from 'vela/testing';
import { connectionSpy } from '../../../test/runtime/connection-spy.js';
import { OcrService } from '../recognition/ocr-service.js';
import { serviceConfig } from './fixtures/service-config.js';

// OCR by URL against the address rules: host names resolve through an injected resolver (never DNS) to each
// internal range, and IP literals come in other spellings. Each is refused with 403 naming the rule before a
// connection is attempted: the guard's connect hook (connectionSpy) records every connection about to open
// and stops any outside 127.0.0.0/8. The one server is on loopback, reached by a name the operator allows.

const config = serviceConfig({
  timeoutMs: 10_000,
  queueTimeoutMs: 10_000,
  uploadIdleMs: 10_000,
  uploadTimeoutMs: 10_000,
  urlTimeoutMs: 5000,
  maxRedirects: 3,
});

const RECORDS: Record<string, string[]> = {
  'docs.example': ['127.0.0.1'],
  'loopback.example': ['127.0.0.1'],
  'private.example': ['10.0.0.5'],
  'home.example': ['192.168.1.20'],
  'cgnat.example': ['100.64.0.1'],
  'metadata.example': ['169.254.169.254'],
  'linklocal.example': ['169.254.10.10'],
  'v6loopback.example': ['::1'],
  'mapped.example': ['::ffff:10.0.0.1'],
  'ula.example': ['fd00::1'],
  'v6linklocal.example': ['fe80::1'],
  'multicast.example': ['ff02::1'],
  'v4multicast.example': ['224.0.0.251'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  // One public record and one internal: every address is checked, not only the first.
  'mixed.example': ['93.184.216.34', '10.0.0.1'],
};

const resolve = async (hostname: string) =>
  (RECORDS[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function setUp(t: { teardown(fn: () => unknown): void }) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/to-metadata')
      return void res.writeHead(302, { location: 'http://metadata.example/latest/meta-data/' }).end();
    if (req.url === '/to-literal')
      return void res.writeHead(302, { location: 'http://0xa9.254.169.254/latest/' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('a note on loopback');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const spy = connectionSpy();
  const guard = new OutboundGuard({ allowHosts: [`docs.example:${port}`], resolve, beforeConnect: spy.hook });
  t.teardown(() => Promise.all([guard.close(), new Promise<void>((done) => server.close(() => done()))]));
  const unused = async () => {
    throw new Error('fetching runs no task');
  };
  const ocr = new OcrService(
    unused,
    config,
    () => guard,
    () => ({ maxThreads: 1, queueSize: 0 }),
  );
  return { ocr, port, requests, attempts: spy.attempts };
}

async function refusal(promise: Promise<unknown>): Promise<{ status?: number; code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { status?: number; code?: string; message: string };
  }
  throw new Error('the document was fetched');
}

test('every internal range a name resolves to is refused, naming it, before any connection is attempted', async (t) => {
  t.timeout(30_000);
  const { ocr, port, requests, attempts } = await setUp(t);
  const families: Array<[string, string]> = [
    ['loopback.example', 'loopback'],
    ['private.example', 'private'],
    ['home.example', 'private'],
    ['cgnat.example', 'shared address space (carrier-grade NAT)'],
    ['metadata.example', 'cloud metadata'],
    ['linklocal.example', 'link-local'],
    ['v6loopback.example', 'loopback'],
    ['mapped.example', 'private'],
    ['ula.example', 'unique-local'],
    ['v6linklocal.example', 'link-local'],
    ['multicast.example', 'multicast'],
    ['v4multicast.example', 'multicast'],
    ['nat64.example', 'cloud metadata'],
    ['mixed.example', 'private'],
  ];
  for (const [host, rule] of families) {
    const error = await refusal(ocr.fetchDocument(`http://${host}:${port}/note.txt`));
    t.is(error.status, 403, host);
    t.is(error.code, 'address_refused', host);
    t.true(error.message.includes(`(${rule})`), `${host}: ${error.message}`);
  }
  t.is((await refusal(ocr.fetchDocument(`http://unknown.example:${port}/x`))).status, 403, 'a name without an address');
  t.deepEqual(attempts, [], 'no connection was attempted');
  t.deepEqual(requests, []);
});

test('IP literals in any spelling are refused without a lookup or a connection attempt', async (t) => {
  t.timeout(30_000);
  const { ocr, port, attempts } = await setUp(t);
  for (const host of [
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '[::ffff:7f00:1]',
    '[::1]',
    '169.254.169.254',
    '[fd00:ec2::254]',
    '0.0.0.0',
  ]) {
    const error = await refusal(ocr.fetchDocument(`http://${host}:${port}/note.txt`));
    t.is(error.status, 403, host);
    t.is(error.code, 'address_refused', host);
  }
  t.deepEqual(attempts, []);
});

test('an allowed name is connected to at the address checked; a redirect to an internal address is refused before it connects', async (t) => {
  t.timeout(30_000);
  const { ocr, port, requests, attempts } = await setUp(t);
  const document = await ocr.fetchDocument(`http://docs.example:${port}/note.txt`);
  t.is(Buffer.from(document.bytes).toString(), 'a note on loopback');
  t.deepEqual(attempts, ['docs.example=127.0.0.1']);

  for (const path of ['/to-metadata', '/to-literal']) {
    const error = await refusal(ocr.fetchDocument(`http://docs.example:${port}${path}`));
    t.is(error.status, 403, path);
    t.true(error.message.includes('(cloud metadata)'), `${path}: ${error.message}`);
  }
  t.deepEqual(requests, ['/note.txt', '/to-metadata', '/to-literal'], 'only the allowed server was asked');
  t.true(
    attempts.every((a) => a === 'docs.example=127.0.0.1'),
    attempts.join(', '),
  );
});
