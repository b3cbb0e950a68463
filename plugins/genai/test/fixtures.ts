import type { SiteSearch } from '@vela/plugin-search/api';
import { startTestRuntime, type TestRuntime } from 'vela/testing';

/** A small handbook where each answer is in exactly one document. */
export const HANDBOOK = [
  {
    id: 'install-docker',
    title: 'Install with Docker',
    text: 'Vela runs in a container. Pull the image with docker pull vela/vela. Start it with docker run -p 2700:2700 vela/vela. The data folder is a volume that keeps the index between restarts.',
    section: 'Setup',
    url: 'https://docs.example/docker',
  },
  {
    id: 'backup',
    title: 'Back up the server',
    text: 'Stop the server before a backup. Copy the data folder to another disk. PostgreSQL databases are backed up with pg_dump.',
    section: 'Operations',
    url: 'https://docs.example/backup',
  },
  {
    id: 'ports',
    title: 'Ports and services',
    text: 'The gateway listens on port 2702. The search service listens on port 2700. The connector listens on port 30130.',
    section: 'Setup',
    url: 'https://docs.example/ports',
  },
  {
    id: 'upgrade',
    title: 'Upgrade to a new release',
    text: 'Read the release notes first. Replace the package folder and start Vela again. Migrations run at start.',
    section: 'Operations',
    url: 'https://docs.example/upgrade',
  },
  {
    id: 'monitoring',
    title: 'Monitoring',
    text: 'Every service answers GET /health. A service is DOWN when one of its checks fails. The connector keeps statistics of every run.',
    section: 'Operations',
    url: 'javascript:alert(document.cookie)',
  },
];

export const HANDBOOK_FIELDS = [
  { name: 'title', type: 'TEXT', hl: true },
  { name: 'text', type: 'TEXT', hl: true },
  { name: 'section', type: 'STRING', facet: true, facetName: 'Sections' },
  { name: 'url', type: 'STRING' },
];

export async function json(
  vela: TestRuntime,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await vela.fetch('search', path, {
    method,
    headers: {
      authorization: vela.adminAuth,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * A runtime with the search and genai plugins, heartbeats every 100 ms; `allowHosts` lets the genai plugin
 * reach test servers on 127.0.0.1; `databaseUrl` and `dataDir` as startTestRuntime takes them.
 */
export function startGenai(
  options: { genai?: Record<string, unknown>; allowHosts?: string[]; databaseUrl?: string; dataDir?: string } = {},
): Promise<TestRuntime> {
  return startTestRuntime({
    plugins: ['search', 'genai'],
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    config: {
      runtime: { network: { allowHosts: options.allowHosts ?? [] } },
      plugins: { genai: { heartbeatMs: 100, ...options.genai } },
    },
  });
}

/** The Handbook site with its documents, searchable when this resolves. */
export async function createHandbook(vela: TestRuntime, name = 'Handbook', docs = HANDBOOK): Promise<void> {
  const site = await json(vela, 'POST', '/api/sn', {
    name,
    locales: ['en_US', 'pt_BR'],
    fields: HANDBOOK_FIELDS,
    defaultTitleField: 'title',
    defaultTextField: 'text',
    defaultURLField: 'url',
  });
  if (site.status !== 201) throw new Error(`site: ${site.status} ${JSON.stringify(site.body)}`);
  const imported = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: docs.map((attributes) => ({ locale: 'en_US', siteNames: [name], attributes })),
  });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.body)}`);
}

/**
 * The LLM instance of the fake model `model` served at `url` (fake-llm.ts), its id the model's name and its vendor
 * OpenAI-compatible unless `extra` says otherwise; as stored.
 */
export async function createFakeInstance(
  vela: TestRuntime,
  url: string,
  model: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const created = await json(vela, 'POST', '/api/llm', {
    id: model,
    vendor: 'OPENAI_COMPATIBLE',
    url,
    modelName: model,
    ...extra,
  });
  if (created.status !== 201) throw new Error(`instance: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** The agent `name` on the Handbook site, answering through the instance `llmInstanceId`; as stored. */
export async function createAgent(
  vela: TestRuntime,
  name: string,
  llmInstanceId: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const created = await json(vela, 'POST', '/api/v2/llm/agent', { name, llmInstanceId, sites: ['Handbook'], ...extra });
  if (created.status !== 201) throw new Error(`agent: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** An API token with the given scopes. */
export async function token(vela: TestRuntime, scopes: string[]): Promise<string> {
  const created = await json(vela, 'POST', '/api/dev/token', { title: `genai ${scopes.join(' ')}`, scopes });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.token as string;
}

/**
 * The query strings of the searches the genai plugin makes through search.service, from now on until the runtime
 * stops (the service is a singleton: its search is wrapped in place). Call it once per runtime.
 */
export function recordSearches(vela: TestRuntime): URLSearchParams[] {
  const service = vela.runtime.container.resolve<SiteSearch>('search.service');
  const original = service.search;
  const queries: URLSearchParams[] = [];
  service.search = (site, queryString) => {
    queries.push(new URLSearchParams(queryString));
    return original(site, queryString);
  };
  return queries;
}
