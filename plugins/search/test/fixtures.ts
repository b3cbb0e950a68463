import type { Database } from 'vela/plugin';
import { callService, type JsonAnswer, startTestRuntime, type TestRuntime } from 'vela/testing';

export interface Doc {
  id: string;
  title: string;
  text: string;
  section: string;
  arch: string;
  tags: string[];
  size: number;
  publication_date: string;
  url: string;
}

const WORDS = [
  'editor',
  'browser',
  'library',
  'server',
  'python',
  'terminal',
  'graphics',
  'audio',
  'network',
  'database',
  'tool',
  'font',
];
const SECTIONS = ['editors', 'web', 'libs', 'net', 'sound', 'devel'];
const TAGS = [
  'role::program',
  'role::shared-lib',
  'interface::x11',
  'interface::commandline',
  'use::editing',
  'implemented-in::c',
];

/** A seeded pseudo-random generator, so generated corpora are the same on every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function makeDocs(count: number, seed = 7): Doc[] {
  const r = rng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const words = [pick(WORDS), pick(WORDS), pick(WORDS)];
    const tags = [...new Set(Array.from({ length: Math.floor(r() * 3) }, () => pick(TAGS)))];
    return {
      id: `doc-${String(i).padStart(4, '0')}`,
      title: `${words[0]} ${words[1]} package ${i}`,
      text: `A ${words[2]} for people who like ${words[0]}s.`,
      section: pick(SECTIONS),
      arch: r() < 0.3 ? 'all' : 'amd64',
      tags,
      size: Math.floor(r() * 5000),
      publication_date: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
      url: `https://packages.example/${i}`,
    };
  });
}

/** A string field shown as the facet `facetName`, at `facetPosition` among the site's facets. */
const facetField = (name: string, facetName: string, facetPosition: number, more: Record<string, unknown> = {}) => ({
  name,
  type: 'STRING',
  facet: true,
  facetName,
  facetPosition,
  ...more,
});

export const SITE_FIELDS = [
  { name: 'id', type: 'STRING' },
  { name: 'title', type: 'TEXT', hl: true },
  { name: 'text', type: 'TEXT', hl: true },
  facetField('section', 'Sections', 1, { facetLabels: { pt_BR: 'Seções' } }),
  facetField('arch', 'Architectures', 2),
  facetField('tags', 'Tags', 3, { multiValued: true, facetItemType: 'OR' }),
  { name: 'size', type: 'INT' },
  { name: 'publication_date', type: 'DATE' },
  { name: 'url', type: 'STRING' },
];

/**
 * A call to the search service as its administrator; the headers given are added, and win. Every body goes as
 * JSON, a string too (a JSON string: how a test sends a body of the wrong type).
 */
export function json(
  vela: TestRuntime,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const sent = body === undefined ? undefined : JSON.stringify(body);
  return callService(vela, 'search', method, path, sent, { authorization: vela.adminAuth, ...headers });
}

/** A JSON call to the search service of a runtime at an address (a child process's). */
export type AddressCall = (
  base: string,
  method: string,
  pathname: string,
  body?: unknown,
) => Promise<{ status: number; body: any }>;

/** JSON calls to the search service of a runtime at an address, as `admin` with `password`. */
export function adminCalls(password: string): AddressCall {
  const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  return async (base, method, pathname, body) => {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** Every id the Sample site's index at `base` answers for a match-all query, read in pages, sorted. */
export async function indexedIds(call: AddressCall, base: string): Promise<string[]> {
  const ids: string[] = [];
  for (let p = 1; ; p++) {
    const r = await call(base, 'GET', `/api/sn/Sample/search?q=*&_setlocale=en_US&fl=id&rows=1000&p=${p}`);
    const page = (r.body.results?.document ?? []).map((d: any) => String(d.fields.id));
    ids.push(...page);
    if (page.length < 1000) return ids.sort();
  }
}

/** The body of an import of `docs` into the Sample site, in en_US. */
export const sampleImport = (docs: Doc[]) => ({
  turingDocuments: docs.map((attributes) => ({ locale: 'en_US', siteNames: ['Sample'], attributes })),
});

export async function createSite(
  vela: TestRuntime,
  name = 'Sample',
  extra: Record<string, unknown> = {},
): Promise<any> {
  const created = await json(vela, 'POST', '/api/sn', {
    name,
    fields: SITE_FIELDS,
    locales: ['en_US', 'pt_BR'],
    ...extra,
  });
  if (created.status !== 201) throw new Error(`site creation failed: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A search runtime with the Sample site (`settings` added to what createSite gives it) holding `docs`. */
export async function startSample(docs: Doc[], settings: Record<string, unknown> = {}): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search'] });
  await createSite(vela, 'Sample', settings);
  await importDocs(vela, docs);
  return vela;
}

export async function importDocs(vela: TestRuntime, docs: object[], site = 'Sample', locale = 'en_US'): Promise<any> {
  const result = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: docs.map((attributes) => ({ locale, turSNJobAction: 'CREATE', siteNames: [site], attributes })),
  });
  if (result.status !== 200) throw new Error(`import failed: ${JSON.stringify(result.body)}`);
  return result.body;
}

/** A search of `site` as anyone may send it (no credentials), `query` its query string. */
export const search = (vela: TestRuntime, query: string, site = 'Sample') =>
  json(vela, 'GET', `/api/sn/${site}/search?${query}`, undefined, { authorization: '' });

/**
 * `db` whose next read of `table` after `hold()` is sent at once but answered only at `release()`, as a poll's
 * read on another connection of the pool can be answered from before a write that lands meanwhile.
 */
export function heldRead(db: Database, table: string): { db: Database; hold: () => void; release: () => void } {
  let armed = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = new Proxy(db, {
    apply(target, self, args: [string]) {
      const builder = Reflect.apply(target, self, args);
      if (args[0] !== table || !armed) return builder;
      armed = false;
      const send = builder.then.bind(builder);
      // biome-ignore lint/suspicious/noThenProperty: knex's builder is a thenable (its chain returns itself): its answer is what is held back
      builder.then = (ok: (rows: unknown) => unknown, fail: (error: unknown) => unknown) =>
        Promise.all([send((rows: unknown) => rows), released])
          .then(([rows]) => rows)
          .then(ok, fail);
      return builder;
    },
  });
  return {
    db: held,
    hold: () => {
      armed = true;
    },
    release,
  };
}
