import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { listTables } from '../../runtime/storage/database.js';
import { createTestPostgres, postgresReachable } from '../../runtime/testing/test-postgres.js';
import { startTestRuntime, type TestRuntime } from '../../runtime/testing/test-runtime.js';

// The bad-input sweep: every operation each service's OpenAPI document describes, called with malformed
// values of every kind, without and with credentials. Every answer must be a 4xx in the one JSON error
// shape (or a success), never a 5xx or a hang; health stays up; and a refused request changes nothing
// stored. Seeded and bounded: the same requests every run, a few per operation and credential.

const SEED = 20261123;
/** Most requests carry the administrator's credentials, to get past access to the validation and handlers behind it. */
const CREDENTIALS: Credentials[] = ['admin', 'none', 'admin', 'bad-key', 'admin'];
const REQUEST_TIMEOUT_MS = 10_000;

type Operation = { service: string; method: string; path: string; params: string[]; query: string[]; hasBody: boolean; body: Schema };
type Credentials = 'none' | 'bad-key' | 'admin';
interface Failure {
  request: string;
  problem: string;
}

/** Tables that background work writes on its own (index snapshots prune the change log, timers flush response times and search metrics). */
const MOVING_TABLES =
  /^(search_changes|search_metric_searches|gateway_response_times|gateway_upstream_status|runtime_sessions|connector_run_leases)$|knex_migrations/;
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

const RAW_SEGMENTS = new Set(['%', '%zz', '%00', '..%2f..%2fetc', '..']);

/** Lone surrogates as U+FFFD: encodeURIComponent cannot spell them (String.prototype.toWellFormed is ES2024). */
const wellFormed = (text: string) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

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

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; required?: string[] };

/** A value the schema would take (first enum value, a short string, 1, true, one item, every required member). */
function plausible(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [plausible(schema.items, depth + 1)];
  if (type === 'object' || schema.properties) return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
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
    fc.constantFrom('{', '{"a":', 'nul', '\u0000', '[1,2', '{"__proto__": {"polluted": true}}').map((text) => ({ text, type: 'application/json' })),
    jsonValue.map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' })),
    fc
      .record(Object.fromEntries(Object.keys(schema.properties ?? {}).map((p) => [p, jsonValue])))
      .map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
    fc.constantFrom(30, 100, 3000).map((d) => ({ text: JSON.stringify(nested(d)), type: 'application/json' })),
    fc
      .constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded')
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
function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
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

async function digest(vela: TestRuntime): Promise<string> {
  const db = vela.runtime.db;
  const hash = createHash('sha256');
  for (const table of (await listTables(db)).sort()) {
    if (MOVING_TABLES.test(table)) continue;
    const rows = (await db(table).select()) as Array<Record<string, unknown>>;
    const kept = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !MOVING_COLUMNS.has(column))));
    hash.update(table).update(JSON.stringify(kept.map((r) => JSON.stringify(r)).sort()));
  }
  return hash.digest('hex');
}

function operationsOf(service: string, doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = (op.parameters ?? []) as Array<{ name: string; in: string }>;
      const body = op.requestBody?.content?.['application/json']?.schema ?? op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      ops.push({
        service,
        method: method.toUpperCase(),
        path: route,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: method !== 'head',
        body: (body ?? {}) as Schema,
      });
    }
  }
  return ops;
}

/** The runtime with something of everything stored: a site with documents, a token, a source, a mapping and an app. */
/** The runtime with something of everything stored, and the ids and names that exist (for path parameters). */
async function populated(databaseUrl?: string): Promise<{ vela: TestRuntime; known: string[] }> {
  const vela = await startTestRuntime({ databaseUrl, config: { plugins: { connector: { apiKeys: ['sweep-connector-key'] } } } });
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
    turingDocuments: [1, 2, 3].map((i) => ({ locale: 'en_US', siteNames: ['Sweep'], attributes: { id: `d${i}`, title: `doc ${i}`, section: 'a' } })),
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
  const fields = (await (await vela.fetch('search', '/api/sn/Sweep/field', { headers: admin })).json()) as Array<{ id: string }>;
  const known = ['Sweep', site.id, 'en_US', fields[0]!.id, 'title', 'sweepsrc', String(token.id), String(mapping.id), String(app.id), 's1', 'd1'];
  return { vela, known };
}

const sweep = test.macro(async (t, database: 'sqlite' | 'postgres', runs: number) => {
  t.timeout(240_000);
  const pg = database === 'postgres' ? await createTestPostgres() : null;
  if (database === 'postgres' && !pg) return t.fail('PostgreSQL refused to create a test database');
  if (pg) t.teardown(() => pg.drop());
  const { vela, known } = await populated(pg?.url);
  t.teardown(() => vela.stop());
  const failures: Failure[] = [];
  let sent = 0;
  const statuses = new Map<number, number>();
  const headersFor = (credentials: Credentials): Record<string, string> =>
    credentials === 'admin' ? { authorization: vela.adminAuth } : credentials === 'bad-key' ? { key: 'not-a-key' } : {};

  for (const service of ['search', 'gateway', 'connector']) {
    const doc = (await (await vela.fetch(service, '/v3/api-docs')).json()) as { paths: Record<string, Record<string, any>> };
    for (const op of operationsOf(service, doc)) {
      if (op.path.includes('{') === false && op.method === 'GET' && /health|api-docs/.test(op.path)) continue;
      const samples = fc.sample(requestArb(op, op.body, known), { seed: SEED + sent, numRuns: runs });
      for (const [i, sample] of samples.entries()) {
        const credentials = CREDENTIALS[i % CREDENTIALS.length]!;
        let url = op.path;
        op.params.forEach((name, j) => {
          const value = String(sample.params[j]);
          // A few spellings go raw, to reach the server as malformed percent-encoding or traversal.
          url = url.replace(`{${name}}`, RAW_SEGMENTS.has(value) ? value : encodeURIComponent(wellFormed(value)));
        });
        const qs = new URLSearchParams(Object.entries(sample.query).map(([k, v]) => [k, String(v)])).toString();
        if (qs) url += `?${qs}`;
        const headers = sample.body ? { ...headersFor(credentials), 'content-type': sample.body.type } : headersFor(credentials);
        const body = op.method === 'HEAD' ? undefined : sample.body?.text;
        const described = `${credentials} ${op.method} ${service}${url.slice(0, 200)} ${sample.body ? sample.body.text.slice(0, 120) : ''}`;
        const before = await digest(vela);
        sent += 1;
        let res: { status: number; text: string };
        try {
          res = await send(vela.url(service, url), op.method, headers, body);
        } catch (error) {
          failures.push({ request: described, problem: `no answer: ${(error as Error).message}` });
          continue;
        }
        const { text } = res;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push({ request: described, problem: `${res.status} ${text.slice(0, 200)}` });
        if (res.status >= 400 && res.status < 500) {
          let body: { error?: unknown; message?: unknown } = {};
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          const graphql = op.path === '/graphql';
          if (!graphql && (typeof body.error !== 'string' || typeof body.message !== 'string')) {
            failures.push({ request: described, problem: `${res.status} not the JSON error shape: ${text.slice(0, 200)}` });
          }
          if ((await digest(vela)) !== before) failures.push({ request: described, problem: `${res.status} but something stored changed` });
        }
      }
    }
  }
  for (const service of ['search', 'gateway', 'connector']) t.is((await vela.fetch(service, '/health')).status, 200, `${service} health after the sweep`);
  t.log(`requests sent: ${sent}; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.true(sent > 200, `requests sent: ${sent}`);
  t.deepEqual(failures, [], `${failures.length} of ${sent} requests failed`);
});

test(
  'every documented operation answers malformed input with a 4xx JSON error, never a 5xx or a hang, and refused requests change nothing (SQLite)',
  sweep,
  'sqlite',
  10,
);
(postgresReachable() ? test : test.skip)('the same sweep on PostgreSQL, where column bounds differ', sweep, 'postgres', 5);
