import type { ExecutionContext } from 'ava';
import { serviceCaller, startTestRuntime, type TestRuntime, type TestRuntimeOptions } from 'vela/testing';
import { ContentServer, PASSWORD, USER } from './fixtures/content-server.js';
import { slingDate, wkndTree } from './fixtures/wknd-tree.js';

export const KEY = 'cms-test-connector-key-0123456789';
export const AUTHOR_SITE = 'wknd-author';
export const PUBLISH_SITE = 'wknd-publish';

export type CmsRuntimeOptions = TestRuntimeOptions & {
  cms?: Record<string, unknown>;
  connector?: Record<string, unknown>;
  alsoAllow?: string[];
};

/**
 * A runtime with search, connector and cms; the content server's loopback host (and `alsoAllow`) allowed for outbound
 * requests.
 */
export function startCms(server: ContentServer, options: CmsRuntimeOptions = {}): Promise<TestRuntime> {
  const { cms, connector = {}, alsoAllow = [], ...rest } = options;
  return startTestRuntime({
    plugins: ['search', 'connector', 'cms'],
    ...rest,
    config: {
      runtime: { network: { allowHosts: [server.host, ...alsoAllow] } },
      plugins: { connector: { apiKeys: [KEY], seedSample: false, ...connector }, ...(cms ? { cms } : {}) },
    },
  });
}

/** A content server over the WKND tree on a loopback port, stopped after the test. */
export async function contentServer(t: ExecutionContext): Promise<ContentServer> {
  const server = await new ContentServer(wkndTree()).start();
  t.teardown(() => server.stop());
  return server;
}

/**
 * A content server, a runtime reading it with the author and publish sites, and the cms source `wknd` over it
 * (with `source`'s changes; none when false), all stopped after the test.
 */
export async function setUpCms(
  t: ExecutionContext,
  options: CmsRuntimeOptions & { source?: Record<string, unknown> | false } = {},
): Promise<{ server: ContentServer; vela: TestRuntime; source: any }> {
  const { source: changes = {}, ...runtime } = options;
  const server = await contentServer(t);
  const vela = await startCms(server, runtime);
  t.teardown(() => vela.stop());
  await createSites(vela);
  const source = changes === false ? undefined : await createSource(vela, server, changes);
  return { server, vela, source };
}

/** Call the connector service (where the cms plugin is mounted) with the Key header (or the headers given). */
export const call = serviceCaller('connector', () => ({ key: KEY }));

/** Call the search service as the administrator. */
export const searchCall = serviceCaller('search', (vela) => ({ authorization: vela.adminAuth }));

const FIELDS = [
  { name: 'id', type: 'STRING' },
  { name: 'title', type: 'TEXT', hl: true },
  { name: 'abstract', type: 'TEXT' },
  { name: 'text', type: 'TEXT', hl: true },
  { name: 'tags', type: 'STRING', multiValued: true, facet: true, facetName: 'Tags' },
  { name: 'modification_date', type: 'DATE' },
  { name: 'template', type: 'STRING' },
  { name: 'url', type: 'STRING' },
];

/** The author and publish sites, in English and Spanish. */
export async function createSites(vela: TestRuntime): Promise<void> {
  for (const name of [AUTHOR_SITE, PUBLISH_SITE]) {
    const created = await searchCall(vela, 'POST', '/api/sn', { name, fields: FIELDS, locales: ['en_US', 'es_ES'] });
    if (created.status !== 201) throw new Error(`site creation failed: ${JSON.stringify(created.body)}`);
  }
}

/** A source over the fixture's whole /content (pages and assets), both environments. */
export function sourceBody(server: ContentServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'wknd',
    endpoint: server.origin,
    username: USER,
    password: PASSWORD,
    rootPath: '/content',
    contentTypes: ['cq:Page', 'dam:Asset'],
    defaultLocale: 'en_US',
    localePaths: [
      { path: '/content/wknd/us/en', locale: 'en_US' },
      { path: '/content/wknd/es', locale: 'es_ES' },
    ],
    authorSite: AUTHOR_SITE,
    publishSite: PUBLISH_SITE,
    deliveryUrlPrefix: 'https://wknd.example',
    ...extra,
  };
}

export async function createSource(
  vela: TestRuntime,
  server: ContentServer,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const created = await call(vela, 'POST', '/api/v2/cms/source', sourceBody(server, extra));
  if (created.status !== 201)
    throw new Error(`source creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** The runs of a connector source, newest first (none yet: []). */
export async function runsOf(vela: TestRuntime, connectorSource: string): Promise<any[]> {
  const stats = await call(vela, 'GET', `/api/v2/connector/monitoring/indexing/stats/${connectorSource}`);
  return stats.status === 200 ? (stats.body as any[]) : [];
}

/** Wait until a connector source has `count` runs and none is running; its runs, newest first. */
export async function waitForRuns(
  vela: TestRuntime,
  connectorSource: string,
  count: number,
  timeoutMs = 30_000,
): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const runs = await runsOf(vela, connectorSource);
    if (runs.length >= count && runs.every((r) => r.status !== 'RUNNING')) return runs;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `${connectorSource} did not have ${count} finished runs within ${timeoutMs} ms: ${JSON.stringify(await runsOf(vela, connectorSource))}`,
  );
}

/** The ids a site holds in a locale. */
export async function searchIds(vela: TestRuntime, site: string, locale = 'en_US'): Promise<string[]> {
  const r = await searchCall(vela, 'GET', `/api/sn/${site}/search?q=*&_setlocale=${locale}&fl=id&rows=1000`);
  if (r.status !== 200) throw new Error(`search failed: ${JSON.stringify(r.body)}`);
  return (r.body.results?.document ?? []).map((d: any) => String(d.fields.id)).sort();
}

/** A document of a site as the search service stores it. */
export async function searchDocument(
  vela: TestRuntime,
  site: string,
  id: string,
  locale = 'en_US',
): Promise<Record<string, unknown> | undefined> {
  const r = await searchCall(vela, 'GET', `/api/sn/${site}/search?q=*&_setlocale=${locale}&rows=1000`);
  return (r.body.results?.document ?? []).map((d: any) => d.fields).find((f: any) => f.id === id);
}

export const EN_PAGES = [
  '/content/wknd',
  '/content/wknd/us',
  '/content/wknd/us/en',
  '/content/wknd/us/en/adventures',
  '/content/wknd/us/en/adventures/bali-surf-camp',
  '/content/wknd/us/en/adventures/ski-touring',
  '/content/wknd/us/en/magazine',
  '/content/wknd/us/en/magazine/arctic-surfing',
];
export const ASSETS = [
  '/content/dam/wknd/en/activities/ski touring.jpg',
  '/content/dam/wknd/en/activities/surfing.jpg',
];

/** An author's edit of a node's jcr:content, saved at `at` (not activated). */
export function edit(server: ContentServer, path: string, at: string, changes: Record<string, unknown> = {}): void {
  const content = server.node(`${path}/jcr:content`);
  if (!content) throw new Error(`the fixture has no ${path}/jcr:content`);
  Object.assign(content, changes, { 'cq:lastModified': slingDate(at) });
}

/** An activation at `at`, recorded on jcr:content as AEM records it. */
export function activate(server: ContentServer, path: string, at: string): void {
  const content = server.node(`${path}/jcr:content`);
  if (!content) throw new Error(`the fixture has no ${path}/jcr:content`);
  Object.assign(content, {
    'cq:lastReplicationAction': 'Activate',
    'cq:lastReplicationAction_publish': 'Activate',
    'cq:lastReplicated': slingDate(at),
    'cq:lastReplicated_publish': slingDate(at),
  });
}
