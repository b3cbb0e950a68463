import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ExecutionContext } from 'ava';
import {
  manifest,
  packageRoot,
  serviceCaller,
  startTestRuntime,
  type TestRuntime,
  type TestRuntimeOptions,
  writePlugins,
} from 'vela/testing';
import type { TestSite } from './fixtures/test-site.js';

export const KEY = 'connector-test-key-0123456789';

export interface Answer {
  status: number;
  body: any;
}

/** A runtime with the search and connector plugins, the connector accepting KEY. */
export function startConnector(
  options: TestRuntimeOptions & { connector?: Record<string, unknown> } = {},
): Promise<TestRuntime> {
  const { connector, ...rest } = options;
  return startTestRuntime({
    plugins: ['search', 'connector'],
    ...rest,
    config: {
      ...(rest.config ?? {}),
      plugins: { ...(rest.config?.plugins ?? {}), connector: { apiKeys: [KEY], batchSize: 200, ...connector } },
    },
  });
}

/** A runtime as startConnector makes it, with the site `site`; it stops when the test ends. */
export async function startWithSite(
  t: ExecutionContext,
  site: string,
  options: Parameters<typeof startConnector>[0] = {},
): Promise<TestRuntime> {
  const vela = await startConnector(options);
  t.teardown(() => vela.stop());
  await createSite(vela, site);
  return vela;
}

/** A search service alone, with the site `site` and an import token for a connector; it stops when the test ends. */
export async function startRemoteSearch(
  t: ExecutionContext,
  site: string,
): Promise<{ search: TestRuntime; url: string; key: string }> {
  const search = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => search.stop());
  await createSite(search, site);
  const token = await searchCall(search, 'POST', '/api/dev/token', {
    title: 'connector',
    scopes: ['search', 'import'],
  });
  return { search, url: search.url('search'), key: token.body.token as string };
}

/**
 * A connector without a co-hosted search plugin, sending to the search service at `search` (`key: null` for none)
 * with the `connector` settings added; it stops when the test ends.
 */
export async function startRemoteConnector(
  t: ExecutionContext,
  search: { url: string; key: string | null },
  connector: Record<string, unknown> = {},
): Promise<TestRuntime> {
  const vela = await startConnector({
    plugins: ['connector'],
    connector: { ...connector, search: { url: search.url, key: search.key } },
  });
  t.teardown(() => vela.stop());
  return vela;
}

/**
 * A connector that may reach `site` (its host and port alone: the outbound guard refuses loopback unless the
 * operator allows it), with the site "Web" and the web source "web" crawling it from its home page with
 * `settings` added; it stops when the test ends.
 */
export async function startWebSource(
  t: ExecutionContext,
  site: TestSite,
  settings: Record<string, unknown> = {},
): Promise<TestRuntime> {
  const vela = await startConnector({ config: { runtime: { network: { allowHosts: [new URL(site.origin).host] } } } });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Web');
  const created = await postKindSource(vela, 'web', 'web', ['Web'], {
    seeds: [`${site.origin}/`],
    delayMs: 0,
    sitemaps: false,
    ...settings,
  });
  if (created.status !== 201) throw new Error(`the web source was refused: ${JSON.stringify(created.body)}`);
  return vela;
}

/**
 * A connector with the site "Docs" and the JSON-lines source "pkgs" reading `records` from `fileName` (gzipped
 * when it ends in .gz); it stops when the test ends. The file's path, for the test to write again.
 */
export async function startPackageSource(
  t: ExecutionContext,
  records: unknown[],
  fileName = 'p.jsonl',
): Promise<{ vela: TestRuntime; file: string }> {
  const vela = await startWithSite(t, 'Docs');
  const file = tempJsonl(records, fileName);
  await createSource(vela, 'pkgs', file, 'Docs');
  return { vela, file };
}

/**
 * A connector that loads, from a folder of its own (as the cms plugin is), the plugin `<name>-kind`: it adds the
 * source kind `kind` (the JavaScript text of the kind's object, named `name`) through the connector.sourceKinds hook.
 */
export async function startWithKind(
  name: string,
  kind: string,
  options: Parameters<typeof startConnector>[0] = {},
): Promise<TestRuntime> {
  const plugin = `${name}-kind`;
  const index = `const kind = ${kind};\nexport default { register(ctx) { ctx.hooks.tap('connector.sourceKinds', '${name}', (kinds) => kinds.register(kind)); } };\n`;
  const loaderPath = await writePlugins([
    {
      manifest: manifest(plugin, { service: 'connector', dependsOn: ['connector'] }),
      files: { 'package.json': JSON.stringify({ type: 'module' }), 'index.ts': index },
    },
  ]);
  return startConnector({
    plugins: ['search', 'connector', plugin],
    loaderPath: [path.join(packageRoot, 'plugins'), loaderPath],
    ...options,
  });
}

/** Call the connector service with the Key header (or the headers given). */
export const call = serviceCaller('connector', () => ({ key: KEY }));

/** Call the search service as the administrator. */
export const searchCall = serviceCaller('search', (vela) => ({ authorization: vela.adminAuth }));

export const SITE_FIELDS = [
  { name: 'id', type: 'STRING' },
  { name: 'title', type: 'TEXT', hl: true },
  { name: 'text', type: 'TEXT', hl: true },
  { name: 'section', type: 'STRING', facet: true, facetName: 'Sections' },
  { name: 'tags', type: 'STRING', multiValued: true, facet: true, facetName: 'Tags' },
  { name: 'size', type: 'INT' },
];

export async function createSite(vela: TestRuntime, name: string): Promise<void> {
  const created = await searchCall(vela, 'POST', '/api/sn', { name, fields: SITE_FIELDS, locales: ['en_US'] });
  if (created.status !== 201) throw new Error(`site creation failed: ${JSON.stringify(created.body)}`);
}

export interface Pkg {
  id: string;
  title: string;
  body: string;
  section: string;
  tags: string[];
  size: number;
}

export function makePackages(count: number, from = 0): Pkg[] {
  const sections = ['editors', 'web', 'libs', 'net'];
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      id: `pkg-${String(i).padStart(5, '0')}`,
      title: `package ${i}`,
      body: `the body of package number ${i}`,
      section: sections[i % sections.length]!,
      tags: [`tag${i % 3}`],
      size: i,
    };
  });
}

export function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'vela-connector-'));
}

/**
 * Write `files` (name to content) into a new folder and create the filesystem source `name` over it, targeting
 * `site`. The folder, for the test to change, and the answer to the creation.
 */
export async function createFolderSource(
  vela: TestRuntime,
  name: string,
  site: string,
  files: Record<string, string | Uint8Array>,
): Promise<{ root: string; created: Answer }> {
  const root = path.join(tempDir(), name);
  mkdirSync(root);
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(root, file), content);
  const created = await call(vela, 'POST', '/api/v2/connector/source', {
    name,
    kind: 'filesystem',
    sites: [site],
    settings: { root },
  });
  if (created.status !== 201) throw new Error(`source creation failed: ${JSON.stringify(created.body)}`);
  return { root, created };
}

/** Write records as JSON lines to `fileName` in a new temporary folder (gzipped when the name ends in .gz). */
export function tempJsonl(records: unknown[], fileName = 'p.jsonl'): string {
  return writeJsonl(path.join(tempDir(), fileName), records);
}

/** Write records as JSON lines (gzipped when the name ends in .gz). */
export function writeJsonl(file: string, records: unknown[]): string {
  const text = `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
  writeFileSync(file, file.endsWith('.gz') ? gzipSync(text) : text);
  return file;
}

export const MAPPING = {
  idField: 'id',
  fields: { title: 'title', text: 'body', section: 'section', tags: 'tags', size: 'size' },
};

/** Ask for a jsonl source over `file` targeting `site`: the answer, whatever it is. */
export function postSource(
  vela: TestRuntime,
  name: string,
  file: string,
  site: string,
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  return call(vela, 'POST', '/api/v2/connector/source', {
    name,
    kind: 'jsonl',
    sites: [site],
    locale: 'en_US',
    settings: { path: file, ...MAPPING },
    ...extra,
  });
}

/** Ask for the source `name` of `kind` targeting `sites` with `settings`: the answer, whatever it is. */
export function postKindSource(
  vela: TestRuntime,
  name: string,
  kind: string,
  sites: string[],
  settings: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  return call(vela, 'POST', '/api/v2/connector/source', { name, kind, sites, settings, ...extra });
}

/** Create a jsonl source over `file` targeting `site`. */
export async function createSource(...source: Parameters<typeof postSource>): Promise<Answer> {
  const created = await postSource(...source);
  if (created.status !== 201) throw new Error(`source creation failed: ${JSON.stringify(created.body)}`);
  return created;
}

/** Poll a run's statistics until it has ended (a deadline, never a fixed sleep). */
export function waitForRun(vela: TestRuntime, source: string, runId: string, timeoutMs = 30_000): Promise<any> {
  return until(
    `run ${runId} of ${source} to end`,
    async () => {
      const stats = await call(vela, 'GET', `/api/v2/connector/monitoring/indexing/stats/${source}`);
      const run = stats.status === 200 ? (stats.body as any[]).find((r) => r.id === runId) : undefined;
      return run && run.status !== 'RUNNING' ? run : undefined;
    },
    timeoutMs,
  );
}

/** Trigger a run and wait for its end. */
export async function runAndWait(vela: TestRuntime, pathname: string, source: string, body?: unknown): Promise<any> {
  const sent = await call(vela, body === undefined ? 'GET' : 'POST', pathname, body);
  if (sent.status !== 200 || sent.body.status !== 'sent')
    throw new Error(`trigger failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  return waitForRun(vela, source, sent.body.runId);
}

/** The first `size` monitoring records of `source` with `status` (INDEXED, ERROR, IGNORED...), as a page. */
export function searchRecords(vela: TestRuntime, source: string, status: string, size = 10): Promise<Answer> {
  return call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', { source, status, page: 0, size });
}

/** Ids the search service holds for a site (match-all, 1000 at a time). */
export async function searchIds(vela: TestRuntime, site: string): Promise<string[]> {
  const ids: string[] = [];
  for (let p = 1; ; p++) {
    const r = await searchCall(vela, 'GET', `/api/sn/${site}/search?q=*&_setlocale=en_US&fl=id&rows=1000&p=${p}`);
    if (r.status !== 200) throw new Error(`search failed: ${JSON.stringify(r.body)}`);
    const page = (r.body.results?.document ?? []).map((d: any) => String(d.fields.id));
    ids.push(...page);
    if (page.length < 1000) return ids.sort();
  }
}

/** Poll `probe` until it answers something other than undefined (a deadline, never a fixed sleep). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
