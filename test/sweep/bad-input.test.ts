import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { hugePagePdf, hugePng, pdfWithHugeImage } from '../../packages/extraction/test/fixtures/bombs.js';
import { type Database, dialectOf, listTables } from '../../runtime/storage/database.js';
import { eventually } from '../../runtime/testing/eventually.js';
import { createTestPostgres, postgresReachable } from '../../runtime/testing/test-postgres.js';
import { startTestRuntime, TEST_ADMIN, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// The bad-input sweep: every operation each service's OpenAPI document describes, called with malformed
// values of every kind, without and with credentials. Every answer must be a 4xx in the one JSON error
// shape (or a success), never a 5xx or a hang; health stays up; and a refused request changes nothing
// stored. Seeded and bounded: the same requests every run, a few per operation and credential.

const SEED = 20261123;
/** Most requests carry the administrator's credentials, to get past access to the validation and handlers behind it. */
const CREDENTIALS: Credentials[] = ['admin', 'none', 'admin', 'bad-key', 'admin'];
const REQUEST_TIMEOUT_MS = 10_000;
const TEST_ADMIN_USER = TEST_ADMIN.user;
/** Credential fuzz: random byte strings besides the fixed odd ones, sent from their own loopback address. */
const ODD_CREDENTIALS = 120;
const FUZZ_ADDRESS = '127.0.0.3';

type Operation = {
  service: string;
  method: string;
  path: string;
  params: string[];
  query: string[];
  hasBody: boolean;
  body: Schema;
  /** Whether the operation takes credentials (admin or key access). */
  secured: boolean;
};
type Credentials = 'none' | 'bad-key' | 'admin';
interface Failure {
  request: string;
  problem: string;
}

/**
 * Tables that background work writes on its own (index snapshots prune the change log, timers flush response
 * times and search metrics), and the password limits' records, which a refused sign-in writes by design.
 */
const MOVING_TABLES =
  /^(search_changes|search_metrics_searches|gateway_response_times|gateway_upstream_status|runtime_sessions|connector_run_leases|runtime_login_failures|runtime_trusted_addresses)$|knex_migrations/;
const MOVING_COLUMNS = new Set(['last_used_at']);

const tricky = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../../etc/passwd',
  '..%2f..%2fetc',
  '%00',
  '%',
  '%zz',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '-9223372036854775809',
  '0x1f',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '\uffff',
  '\ud800',
  '💥'.repeat(50),
  'x'.repeat(5000),
  'y'.repeat(70_000),
];

/** A lone surrogate's UTF-8-like bytes, which are not UTF-8: what a URL can carry of one. */
const NOT_UTF8 = '%ED%A0%80';
const RAW_SEGMENTS = new Set(['%', '%zz', '%00', '..%2f..%2fetc', '..', NOT_UTF8]);

/** Lone surrogates as U+FFFD: encodeURIComponent cannot spell them (String.prototype.toWellFormed is ES2024). */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const scalar = fc.oneof(
  fc.constantFrom(...tricky),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 2 ** 31, -(2 ** 53)),
  fc.boolean(),
  fc.constant(null),
);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...tricky.slice(0, 12), 'name', 'id', 'q'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
};

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  required?: string[];
};

/** A value the schema would take (first enum value, a short string, 1, true, one item, every required member). */
function plausible(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [plausible(schema.items, depth + 1)];
  if (type === 'object' || schema.properties)
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
  return 'sweep';
}

/** A body the schema would almost take: one member (or one item's member) replaced by a malformed value. */
const nearlyValid = (schema: Schema) => {
  const members = Object.keys(schema.properties ?? {});
  const base = plausible(schema);
  if (members.length === 0 || !base || typeof base !== 'object' || Array.isArray(base))
    return jsonValue.map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' }));
  return fc
    .tuple(fc.constantFrom(...members), fc.oneof(fc.constantFrom(...tricky), jsonValue))
    .map(([member, value]) => ({ text: JSON.stringify({ ...base, [member]: value }), type: 'application/json' }));
};

/** One malformed request body: text and content type. */
const bodyArb = (schema: Schema) =>
  fc.oneof(
    nearlyValid(schema),
    nearlyValid(schema),
    fc
      .constantFrom('{', '{"a":', 'nul', '\u0000', '[1,2', '{"__proto__": {"polluted": true}}')
      .map((text) => ({ text, type: 'application/json' })),
    jsonValue.map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' })),
    fc
      .record(Object.fromEntries(Object.keys(schema.properties ?? {}).map((p) => [p, jsonValue])))
      .map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
    fc.constantFrom(30, 100, 3000).map((d) => ({ text: JSON.stringify(nested(d)), type: 'application/json' })),
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
      )
      .map((type) => ({ text: 'a=1&b=%zz', type })),
  );

const requestArb = (op: Operation, schema: Schema, known: string[]) =>
  fc.record({
    // Half the path values name things that exist, so the malformed rest reaches the handlers behind them.
    params: fc.tuple(
      ...op.params.map(() =>
        fc.oneof(
          fc.constantFrom(...known),
          fc.constantFrom(...known),
          fc.constantFrom(...tricky, ...RAW_SEGMENTS),
          fc.string({ maxLength: 20 }),
          fc.integer().map(String),
        ),
      ),
    ),
    query: fc.dictionary(
      fc.constantFrom(...op.query, 'q', '_setlocale', 'rows', 'p', 'fq[]', 'sort', '__proto__'),
      fc.oneof(fc.constantFrom(...tricky), fc.string({ maxLength: 20 })),
      { maxKeys: 4 },
    ),
    body: op.hasBody ? fc.option(bodyArb(schema), { nil: undefined, freq: 4 }) : fc.constant(undefined),
  });

/** node:http rather than fetch: a GET may carry a body too (some routes read one), as clients send it. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  localAddress?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        localAddress,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Raw bytes on a socket, for what Node's own parser refuses before any handler runs. The answer must be framed
 * as any other (its Content-Length the body's), so the body is the bytes that Content-Length counts.
 */
function sendRaw(base: string, request: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the rest of an oversized request is still being written.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = Buffer.concat(chunks);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0)
        return reject(new Error(`no complete answer: ${JSON.stringify(answer.toString('latin1').slice(0, 200))}`));
      const head = answer.subarray(0, end).toString('latin1');
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const body = answer.subarray(end + 4);
      if (!length || Number(length[1]) !== body.length)
        return reject(new Error(`Content-Length ${length?.[1] ?? 'missing'} for ${body.length} bytes: ${head}`));
      resolve({ status: Number(head.split(' ')[1]), text: body.toString('utf8') });
    });
  });
}

interface DigestQuery {
  tables: string[];
  text: string;
}

/**
 * What is stored, a hash per table: every table but the moving ones, each as the sorted set of its rows (moving
 * columns left out). The database renders and sorts the rows, all tables in one query (`digestQuery`): read
 * through knex a table at a time, 26 round trips a digest, it was most of the sweep's CPU.
 */
async function digest(db: Database, { tables, text }: DigestQuery): Promise<Map<string, string>> {
  const answer = (await db.raw(text)) as unknown;
  // sqlite3 answers with the rows, pg with a result that holds them.
  const row = (Array.isArray(answer) ? answer[0] : (answer as { rows: unknown[] }).rows[0]) as Record<string, unknown>;
  return new Map(
    tables.map((table, i) => [
      table,
      createHash('sha256')
        .update(String(row[`t${i}`] ?? ''))
        .digest('hex'),
    ]),
  );
}

/** The tables whose rows differ between two digests. */
const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([table, hash]) => before.get(table) !== hash).map(([table]) => table);

/** The digest's query, made once per runtime: no request creates a table. */
async function digestQuery(db: Database): Promise<DigestQuery> {
  const postgres = dialectOf(db) === 'postgres';
  const tables = (await listTables(db)).filter((table) => !MOVING_TABLES.test(table)).sort();
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const parts: string[] = [];
  for (const [i, table] of tables.entries()) {
    const columns = Object.keys(await db(table).columnInfo())
      .filter((column) => !MOVING_COLUMNS.has(column))
      .sort()
      .map(quote);
    // Each row as text: ROW(...)::text on PostgreSQL, SQLite's quote() of each column (blobs and NULL included).
    const rendered = postgres
      ? `ROW(${columns.join(', ')})::text`
      : columns.map((c) => `quote(${c})`).join(" || ',' || ");
    parts.push(
      postgres
        ? `(SELECT string_agg(r, E'\\n' ORDER BY r COLLATE "C") FROM (SELECT ${rendered} AS r FROM ${quote(table)}) s) AS t${i}`
        : `(SELECT group_concat(r, char(10)) FROM (SELECT ${rendered} AS r FROM ${quote(table)} ORDER BY r)) AS t${i}`,
    );
  }
  return { tables, text: `SELECT ${parts.join(', ')}` };
}

function operationsOf(service: string, doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = (op.parameters ?? []) as Array<{ name: string; in: string }>;
      const body =
        op.requestBody?.content?.['application/json']?.schema ??
        op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      ops.push({
        service,
        method: method.toUpperCase(),
        path: route,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: method !== 'head',
        body: (body ?? {}) as Schema,
        secured: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return ops;
}

/** What populated() stored, by kind: path parameters that name something that exists. */
interface Stored {
  site: string;
  siteId: string;
  field: string;
  token: string;
  source: string;
  mapping: string;
  app: string;
  /** The sweep app's access token, for the gateway's proxy. */
  bearer: string;
}

/** The runtime with something of everything stored, and the ids and names that exist (for path parameters). */
async function populated(databaseUrl?: string): Promise<{ vela: TestRuntime; known: string[]; stored: Stored }> {
  const vela = await startTestRuntime({
    databaseUrl,
    config: { plugins: { connector: { apiKeys: ['sweep-connector-key'] } } },
  });
  const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
  const post = async (service: string, url: string, body: unknown) => {
    const res = await vela.fetch(service, url, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, any>;
  };
  await post('search', '/api/sn', {
    name: 'Sweep',
    locales: ['en_US'],
    fields: [
      { name: 'title', type: 'TEXT' },
      { name: 'section', type: 'STRING', facet: true },
    ],
  });
  await post('search', '/api/sn/import?wait=true', {
    turingDocuments: [1, 2, 3].map((i) => ({
      locale: 'en_US',
      siteNames: ['Sweep'],
      attributes: { id: `d${i}`, title: `doc ${i}`, section: 'a' },
    })),
  });
  const token = await post('search', '/api/dev/token', { title: 'sweep' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-sweep-'));
  writeFileSync(path.join(dir, 'docs.jsonl'), '{"id":"s1","title":"one"}\n');
  await post('connector', '/api/v2/connector/source', {
    name: 'sweepsrc',
    kind: 'jsonl',
    sites: ['Sweep'],
    settings: { path: path.join(dir, 'docs.jsonl'), idField: 'id', fields: { title: 'title' } },
  });
  const mapping = await post('gateway', '/api/v2/mapping', { context: '/proxy/sweep', url: 'http://127.0.0.1:9/api' });
  const app = await post('gateway', '/api/v2/app', { name: 'sweep-app', callbackUrls: ['http://127.0.0.1:9/cb'] });
  const site = (await (await vela.fetch('search', '/api/sn/Sweep', { headers: admin })).json()) as { id: string };
  const fields = (await (await vela.fetch('search', '/api/sn/Sweep/field', { headers: admin })).json()) as Array<{
    id: string;
  }>;
  const known = [
    'Sweep',
    site.id,
    'en_US',
    fields[0]!.id,
    'title',
    'sweepsrc',
    String(token.id),
    String(mapping.id),
    String(app.id),
    's1',
    'd1',
  ];
  const stored = {
    site: 'Sweep',
    siteId: site.id,
    field: fields[0]!.id,
    token: String(token.id),
    source: 'sweepsrc',
    mapping: String(mapping.id),
    app: String(app.id),
    bearer: String(app.accessToken),
  };
  return { vela, known, stored };
}

/** The stored thing a path parameter of `op` names, so a request with it reaches the handler behind validation. */
function existing(op: Operation, param: string, stored: Stored): string {
  if (param === 'locale') return 'en_US';
  if (/^(siteName|snSiteId)$/.test(param) || (op.service === 'search' && op.path.startsWith('/api/sn/{'))) {
    return op.path.includes('/field/{id}') && param === 'id' ? stored.field : stored.site;
  }
  if (op.service === 'connector' && /^(name|source)$/.test(param)) return stored.source;
  if (op.path.includes('/mapping/')) return stored.mapping;
  if (op.path.includes('/app/')) return stored.app;
  if (op.path.includes('/dev/token/')) return stored.token;
  return 'x';
}

const NUL_TEXT = 'a\u0000b';

/** Every string of a value replaced by one holding NUL. */
function withNul(value: unknown): unknown {
  if (typeof value === 'string') return NUL_TEXT;
  if (Array.isArray(value)) return value.map(withNul);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNul(v)]));
  return value;
}

interface FixedRequest {
  params: string[];
  query: Record<string, string>;
  /** Appended to the query as it is (percent-encoding that URLSearchParams would escape). */
  rawQuery?: string;
  body?: { text: string; type: string };
}

/**
 * NUL (U+0000) where the audit found PostgreSQL failing on it, as fixed inputs of every operation: in every
 * path parameter, in every query parameter, in every string of a body the schema would take, in each of its
 * members alone and in a member name; path parameters that exist, so the body reaches the handler. A DELETE
 * takes only the first: with an existing id it would remove what later requests need.
 */
function nulRequests(op: Operation, stored: Stored): FixedRequest[] {
  const requests: FixedRequest[] = [];
  const real = op.params.map((name) => existing(op, name, stored));
  if (op.params.length > 0) requests.push({ params: op.params.map(() => NUL_TEXT), query: {} });
  if (op.method === 'DELETE') return requests;
  if (op.query.length > 0)
    requests.push({ params: real, query: Object.fromEntries(op.query.map((name) => [name, NUL_TEXT])) });
  const base = plausible(op.body);
  if (!op.hasBody || !op.body.properties || !base || typeof base !== 'object' || Array.isArray(base)) return requests;
  const json = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' });
  requests.push({ params: real, query: {}, body: json(withNul(base)) });
  requests.push({ params: real, query: {}, body: json({ ...base, [`k${NUL_TEXT}`]: 1 }) });
  for (const member of Object.keys(op.body.properties)) {
    requests.push({
      params: real,
      query: {},
      body: json({ ...base, [member]: withNul((base as Record<string, unknown>)[member] ?? 'x') }),
    });
  }
  return requests;
}

/** Lone surrogates: JSON spells them (`"\ud800"`), no UTF-8 can. */
const LONE = ['\ud800', 'a\udfff\ud800b', 'x\udbff'];

/** Every string of a value replaced by one holding a lone surrogate; an empty object gets a member holding one. */
function withLone(value: unknown, i = 0): unknown {
  if (typeof value === 'string') return LONE[i % LONE.length];
  if (Array.isArray(value)) return value.length > 0 ? value.map((v, j) => withLone(v, i + j)) : [LONE[i % LONE.length]];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length > 0
      ? Object.fromEntries(entries.map(([k, v], j) => [k, withLone(v, i + j)]))
      : { q: LONE[i % LONE.length] };
  }
  return value;
}

/**
 * Lone surrogates as fixed inputs of every operation: in every string of a body the schema would take, in each
 * member alone (GraphQL's variables included), in a member name; and what a URL can carry of one, bytes that are
 * not UTF-8, in every path and query parameter. Each must be a 4xx naming it, never a 500.
 */
function surrogateRequests(op: Operation, stored: Stored): FixedRequest[] {
  const requests: FixedRequest[] = [];
  const real = op.params.map((name) => existing(op, name, stored));
  if (op.params.length > 0) requests.push({ params: op.params.map(() => NOT_UTF8), query: {} });
  if (op.method === 'DELETE') return requests;
  const names = [...op.query, 'q'];
  requests.push({
    params: real,
    query: {},
    rawQuery: names.map((name) => `${encodeURIComponent(name)}=${NOT_UTF8}`).join('&'),
  });
  if (!op.hasBody) return requests;
  const json = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' });
  const base = plausible(op.body);
  if (!op.body.properties || !base || typeof base !== 'object' || Array.isArray(base)) {
    requests.push({ params: real, query: {}, body: json(withLone(base)) });
    return requests;
  }
  requests.push({ params: real, query: {}, body: json(withLone(base)) });
  requests.push({ params: real, query: {}, body: json({ ...base, [`k${LONE[0]}`]: 1 }) });
  for (const member of Object.keys(op.body.properties)) {
    requests.push({
      params: real,
      query: {},
      body: json({ ...base, [member]: withLone((base as Record<string, unknown>)[member] ?? 'x') }),
    });
  }
  return requests;
}

/**
 * Basic credentials that no account has, built of odd bytes: each must be a 401 (or 429 past the limits), never an
 * error.
 */
function oddCredentials(count: number): string[] {
  const basic = (bytes: Uint8Array | Buffer) => `Basic ${Buffer.from(bytes).toString('base64')}`;
  const fixed = [
    basic(Buffer.from('ad\u0000min:x')),
    basic(Buffer.from(`${TEST_ADMIN_USER}:x\u0000y`)),
    basic(Buffer.from(`${TEST_ADMIN_USER}\u0000:x`)),
    basic(Buffer.from([0x61, 0xff, 0xfe, 0x3a, 0x80, 0xc0])),
    basic(Buffer.from([0xed, 0xa0, 0x80, 0x3a, 0x78])),
    basic(Buffer.from([0xc0, 0x80, 0x3a, 0x78])),
    basic(Buffer.from(`ad\r\nmin:x`)),
    basic(Buffer.from(`${'u'.repeat(5000)}:x`)),
    basic(Buffer.from(`${TEST_ADMIN_USER}:${'p'.repeat(20_000)}`)),
    basic(Buffer.from('nocolon')),
    basic(Buffer.from(':')),
    basic(Buffer.from(':password')),
    'Basic ',
    'Basic',
    'Basic ====',
    'Basic !!!not-base64!!!',
    `basic   ${Buffer.from('__proto__:constructor').toString('base64')}`,
  ];
  const random = fc.sample(
    fc
      .tuple(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }))
      .map(([user, password]) => basic(Buffer.concat([user, Buffer.from(':'), password]))),
    { seed: SEED, numRuns: count },
  );
  return [...fixed, ...random];
}

/** The path of an operation with its parameters filled in, and a query string. */
function urlOf(op: Operation, params: unknown[], query: Record<string, unknown>): string {
  let url = op.path;
  op.params.forEach((name, j) => {
    const value = String(params[j]);
    // A few spellings go raw, to reach the server as malformed percent-encoding or traversal.
    url = url.replace(`{${name}}`, RAW_SEGMENTS.has(value) ? value : encodeURIComponent(wellFormed(value)));
  });
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return qs ? `${url}?${qs}` : url;
}

interface Probe {
  service: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  localAddress?: string;
  /** Bytes written on a socket as they are, instead of a request made by node:http (what no client library sends). */
  raw?: string;
  /** What the log of failures calls the request. */
  described: string;
}

/**
 * Sends requests and holds each answer to the rules: no 5xx, no hang, a 4xx in the one JSON error shape, and
 * nothing stored changed by a refused request. Collects what broke them, and counts answers by status.
 */
class Prober {
  readonly failures: Failure[] = [];
  readonly statuses = new Map<number, number>();
  sent = 0;
  private readonly connectorRuns: { isBusy(source: string): boolean };
  /**
   * The digest after the last refused request, which changed nothing: the next request's "before", without reading
   * every table again.
   */
  private unchanged: Map<string, string> | null = null;
  private query: Promise<DigestQuery> | null = null;
  /** Whether the last request was accepted, and so may have started a connector run. */
  private accepted = true;

  constructor(private readonly vela: TestRuntime) {
    this.connectorRuns = vela.runtime.container.resolve<{ isBusy(source: string): boolean }>('connector.runs');
  }

  private async digest(): Promise<Map<string, string>> {
    this.query ??= digestQuery(this.vela.runtime.db);
    return digest(this.vela.runtime.db, await this.query);
  }

  async send(probe: Probe): Promise<{ status: number; text: string } | null> {
    // A run an earlier (accepted) request started records its work in the background: it ends, its statistics
    // written (after the source is free again), before the comparison.
    if (this.accepted)
      await eventually(
        async () =>
          !this.connectorRuns.isBusy('sweepsrc') &&
          (await this.vela.runtime.db('connector_runs').where({ status: 'RUNNING' }).first()) === undefined,
        'the connector run started by an earlier request to end',
      );
    const before = this.unchanged ?? (await this.digest());
    this.unchanged = null;
    this.accepted = true;
    this.sent += 1;
    let res: { status: number; text: string };
    try {
      res =
        probe.raw === undefined
          ? await send(
              this.vela.url(probe.service, probe.url),
              probe.method,
              probe.headers,
              probe.body,
              probe.localAddress,
            )
          : await sendRaw(this.vela.url(probe.service), probe.raw);
    } catch (error) {
      this.failures.push({ request: probe.described, problem: `no answer: ${(error as Error).message}` });
      return null;
    }
    const { status, text } = res;
    this.accepted = status < 400;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status >= 500) this.failures.push({ request: probe.described, problem: `${status} ${text.slice(0, 200)}` });
    if (status >= 400 && status < 500) {
      let body: { error?: unknown; message?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      const graphql = probe.url.startsWith('/graphql');
      if (!graphql && (typeof body.error !== 'string' || typeof body.message !== 'string')) {
        this.failures.push({
          request: probe.described,
          problem: `${status} not the JSON error shape: ${text.slice(0, 200)}`,
        });
      }
      const after = await this.digest();
      const changed = changedTables(before, after);
      if (changed.length > 0)
        this.failures.push({ request: probe.described, problem: `${status} but ${changed.join(', ')} changed` });
      else this.unchanged = after;
    }
    return res;
  }
}

const headersFor = (vela: TestRuntime, credentials: Credentials): Record<string, string> =>
  credentials === 'admin' ? { authorization: vela.adminAuth } : credentials === 'bad-key' ? { key: 'not-a-key' } : {};

function describe(credentials: string, op: Operation, url: string, body?: { text: string }): string {
  return `${credentials} ${op.method} ${op.service}${url.slice(0, 200)} ${body ? JSON.stringify(body.text.slice(0, 120)) : ''}`;
}

async function operations(vela: TestRuntime): Promise<Operation[]> {
  const ops: Operation[] = [];
  for (const service of ['search', 'gateway', 'connector']) {
    const doc = (await (await vela.fetch(service, '/v3/api-docs')).json()) as {
      paths: Record<string, Record<string, any>>;
    };
    ops.push(
      ...operationsOf(service, doc).filter(
        (op) => op.path.includes('{') || op.method !== 'GET' || !/health|api-docs/.test(op.path),
      ),
    );
  }
  return ops;
}

/** Generated malformed requests: `runs` per operation, with and without credentials. */
async function sweepGenerated(
  prober: Prober,
  vela: TestRuntime,
  ops: Operation[],
  known: string[],
  runs: number,
): Promise<void> {
  for (const op of ops) {
    const samples = fc.sample(requestArb(op, op.body, known), { seed: SEED + prober.sent, numRuns: runs });
    for (const [i, sample] of samples.entries()) {
      const credentials = CREDENTIALS[i % CREDENTIALS.length]!;
      const url = urlOf(op, sample.params, sample.query);
      const headers = sample.body
        ? { ...headersFor(vela, credentials), 'content-type': sample.body.type }
        : headersFor(vela, credentials);
      const body = op.method === 'HEAD' ? undefined : sample.body?.text;
      await prober.send({
        service: op.service,
        method: op.method,
        url,
        headers,
        body,
        described: describe(credentials, op, url, sample.body),
      });
    }
  }
}

/** The fixed NUL inputs of every operation, with the administrator's credentials (to reach the handlers). */
async function sweepNul(prober: Prober, vela: TestRuntime, ops: Operation[], stored: Stored): Promise<void> {
  for (const op of ops) {
    for (const request of nulRequests(op, stored)) {
      const url = urlOf(op, request.params, request.query);
      const headers: Record<string, string> = { authorization: vela.adminAuth };
      if (request.body) headers['content-type'] = request.body.type;
      const body = op.method === 'HEAD' ? undefined : request.body?.text;
      await prober.send({
        service: op.service,
        method: op.method,
        url,
        headers,
        body,
        described: describe('admin, NUL', op, url, request.body),
      });
    }
  }
}

/** The fixed lone-surrogate inputs of every operation, with the administrator's credentials (to reach the handlers). */
async function sweepSurrogates(prober: Prober, vela: TestRuntime, ops: Operation[], stored: Stored): Promise<void> {
  for (const op of ops) {
    for (const request of surrogateRequests(op, stored)) {
      let url = urlOf(op, request.params, request.query);
      if (request.rawQuery) url += `${url.includes('?') ? '&' : '?'}${request.rawQuery}`;
      const headers: Record<string, string> = { authorization: vela.adminAuth };
      if (request.body) headers['content-type'] = request.body.type;
      const body = op.method === 'HEAD' ? undefined : request.body?.text;
      const answer = await prober.send({
        service: op.service,
        method: op.method,
        url,
        headers,
        body,
        described: describe('admin, lone surrogate', op, url, request.body),
      });
      // A body with a lone surrogate never gets past the runtime's check (a GET's body is read by few routes).
      if (
        answer &&
        request.body?.text.includes('\\ud') &&
        op.method !== 'HEAD' &&
        op.method !== 'GET' &&
        answer.status < 400
      ) {
        prober.failures.push({
          request: describe('admin, lone surrogate', op, url, request.body),
          problem: `a lone surrogate answered ${answer.status}`,
        });
      }
    }
  }
}

/**
 * What the HTTP layer refuses before any route, on every service, as raw bytes: a path and a header past the
 * limit (431), malformed HTTP, a missing Host, a target that is no URL (400), an unmet Expect (417), a body over
 * the limit and chunk extensions past Node's (413); on the
 * gateway, a proxied request whose head is over what it forwards (431). Each in the one error shape, framed.
 */
async function sweepHttpLayer(prober: Prober, vela: TestRuntime, stored: Stored): Promise<void> {
  const admin = `Authorization: ${vela.adminAuth}\r\n`;
  const big = JSON.stringify({ filler: 'x'.repeat(1_100_000) });
  const requests: Array<[string, string]> = [
    ['a 70 KiB path', `GET /${'a'.repeat(70 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a 70 KiB header', `GET /health HTTP/1.1\r\nHost: x\r\nX-Long: ${'b'.repeat(70 * 1024)}\r\n\r\n`],
    ['a request line that is not HTTP', 'NOT HTTP AT ALL\r\n\r\n'],
    ['a header name with a space', 'GET /health HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n'],
    ['HTTP/1.1 without Host', 'GET /health HTTP/1.1\r\n\r\n'],
    ['an Expect other than 100-continue', 'GET /health HTTP/1.1\r\nHost: x\r\nExpect: other\r\n\r\n'],
    ['a request target that is no URL', 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['two Content-Lengths', 'POST /api/logout HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
    [
      'a chunk size that is not hex',
      `POST /api/logout HTTP/1.1\r\nHost: x\r\n${admin}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ],
    [
      '20 KB of chunk extensions',
      `POST /api/logout HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    ],
    [
      'a body over the service limit',
      `POST /api/logout HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
    ],
  ];
  const proxied = `GET /sweep/${'p'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stored.bearer}\r\n\r\n`;
  for (const service of ['search', 'gateway', 'connector']) {
    for (const [what, raw] of service === 'gateway'
      ? [...requests, ['a proxied path over what the gateway forwards', proxied] as [string, string]]
      : requests) {
      const answer = await prober.send({
        service,
        method: 'RAW',
        url: '',
        headers: {},
        raw,
        described: `raw ${service}: ${what}`,
      });
      if (answer && answer.status < 400)
        prober.failures.push({ request: `raw ${service}: ${what}`, problem: `answered ${answer.status}` });
    }
  }
}

/**
 * Odd Basic credentials on the operations that take credentials and on each service's sign-in, from an address
 * of their own (the limits they run into must not hold the sweep's administrator back): each a 401, or a 429
 * once the limits are reached; never a success, never an error.
 */
async function sweepCredentials(prober: Prober, ops: Operation[]): Promise<void> {
  const secured = ops.filter((op) => op.secured && (op.method === 'GET' || op.method === 'POST'));
  const targets = [
    ...['search', 'gateway', 'connector'].map((service) => ({
      service,
      method: 'GET',
      path: '/api/login',
      params: [] as string[],
    })),
    ...secured,
  ];
  for (const [i, authorization] of oddCredentials(ODD_CREDENTIALS).entries()) {
    const op = targets[i % targets.length]!;
    const url = op.path.replace(/\{[^}]+\}/g, 'x');
    const answer = await prober.send({
      service: op.service,
      method: op.method,
      url,
      headers: { authorization },
      localAddress: FUZZ_ADDRESS,
      described: `credentials ${JSON.stringify(authorization.slice(0, 80))} ${op.method} ${op.service}${url}`,
    });
    if (answer && answer.status !== 401 && answer.status !== 429) {
      prober.failures.push({
        request: `${authorization.slice(0, 80)} ${op.method} ${op.service}${url}`,
        problem: `odd credentials answered ${answer.status}`,
      });
    }
  }
}

/** A multipart/form-data body of one file part, `file`, as a browser sends an upload. */
function fileUpload(name: string, type: string, bytes: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = 'sweep-upload';
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * Decompression bombs uploaded to OCR, anonymously: a PNG of 7,990 × 7,990 pixels (79 KB), a PDF of one
 * 14,400 × 14,400 pt page (400 bytes) and a PDF drawing an image of 7,990 × 7,990 pixels. Each is refused with
 * 413 in the error shape, from its headers (sent alone, then through the prober, which checks the shape and that
 * nothing stored changed). How fast is measured by scripts/bench/ocr-bombs.ts.
 */
async function sweepBombs(prober: Prober, vela: TestRuntime): Promise<void> {
  const url = vela.url('search', '/api/ocr/file');
  const bombs: Array<[string, string, Uint8Array]> = [
    ['bomb.png', 'image/png', hugePng()],
    ['page.pdf', 'application/pdf', hugePagePdf()],
    ['image.pdf', 'application/pdf', pdfWithHugeImage()],
  ];
  for (const [name, type, bytes] of bombs) {
    const { body, contentType } = fileUpload(name, type, bytes);
    const described = `POST search/api/ocr/file: a decompression bomb, ${name} (${bytes.byteLength} bytes)`;
    const refused = await send(url, 'POST', { 'content-type': contentType }, body);
    if (refused.status !== 413)
      prober.failures.push({
        request: described,
        problem: `answered ${refused.status}: ${refused.text.slice(0, 200)}`,
      });
    const answer = await prober.send({
      service: 'search',
      method: 'POST',
      url: '/api/ocr/file',
      headers: { 'content-type': contentType },
      body,
      described,
    });
    if (answer && answer.status !== 413)
      prober.failures.push({ request: described, problem: `answered ${answer.status}` });
  }
}

const sweep = test.macro(async (t, database: 'sqlite' | 'postgres', runs: number) => {
  t.timeout(420_000);
  const pg = database === 'postgres' ? await createTestPostgres() : null;
  if (database === 'postgres' && !pg) return t.fail('PostgreSQL refused to create a test database');
  if (pg) t.teardown(() => pg.drop());
  const { vela, known, stored } = await populated(pg?.url);
  t.teardown(() => vela.stop());
  const prober = new Prober(vela);
  const ops = await operations(vela);
  const started = performance.now();
  // First: the gateway's proxy is reached with the sweep app's token, which later requests may revoke.
  await sweepHttpLayer(prober, vela, stored);
  const layer = prober.sent;
  await sweepNul(prober, vela, ops, stored);
  const nul = prober.sent - layer;
  await sweepSurrogates(prober, vela, ops, stored);
  const lone = prober.sent - layer - nul;
  await sweepBombs(prober, vela);
  await sweepGenerated(prober, vela, ops, known, runs);
  await sweepCredentials(prober, ops);
  for (const service of ['search', 'gateway', 'connector'])
    t.is((await vela.fetch(service, '/health')).status, 200, `${service} health after the sweep`);
  const { failures, sent, statuses } = prober;
  t.log(
    `requests sent: ${sent} (${nul} with NUL, ${lone} with lone surrogates, ${layer} refused by the HTTP layer) in ${Math.round((performance.now() - started) / 1000)} s; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
  t.true(sent > 200, `requests sent: ${sent}`);
  t.deepEqual(failures, [], `${failures.length} of ${sent} requests failed`);
});

test(
  'every documented operation answers malformed input with a 4xx JSON error, never a 5xx or a hang, and refused requests change nothing (SQLite)',
  sweep,
  'sqlite',
  10,
);
(postgresReachable() ? test : test.skip)(
  'the same sweep on PostgreSQL, where column bounds differ',
  sweep,
  'postgres',
  5,
);
