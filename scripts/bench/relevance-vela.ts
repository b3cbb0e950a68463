// Vela's search service for the relevance benchmark: a runtime with the search plugin, the Debian site, and the
// corpus imported through the HTTP import API, as search-service.ts sets it up.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SearchEngine } from '../../plugins/search/engine/search-engine.js';
import { SiteStore } from '../../plugins/search/store/site-store.js';
import type { SiteConfig } from '../../plugins/search/store/site-types.js';
import { loadConfig } from '../../runtime/config/load-config.js';
import { Runtime } from '../../runtime/lifecycle/runtime.js';
import { FIELD_WEIGHTS } from './relevance-systems.js';
import { type CorpusDocument, debianSiteFields } from './search-corpus.js';
import { writeSearchSnapshot } from './search-snapshot.js';
import { asAttributes } from './search-systems.js';

/** The site's fields, those the peers weigh above the rest (FIELD_WEIGHTS) boosted as they are. */
function boosted(fields: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const weights: Record<string, number> = FIELD_WEIGHTS;
  return fields.map((field) => {
    const weight = weights[field.name as string];
    return weight !== undefined && weight !== 1 ? { ...field, boost: weight } : field;
  });
}

/** What a benchmark may run beyond the search plugin: more plugins, and where the runtime's log goes. */
export interface VelaOptions {
  plugins?: string[];
  /** The runtime's JSON log lines at `info` (default: none below `warn`, on stdout). */
  logDestination?: NodeJS.WritableStream;
}

/** Starts the service, makes the site and imports the corpus; `engine()`: the site's engine as the service built it. */
export async function startVela(documents: CorpusDocument[], options: VelaOptions = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-relevance-'));
  const config = loadConfig({
    env: {},
    overrides: {
      runtime: {
        dataDir,
        logLevel: options.logDestination ? 'info' : 'warn',
        logFormat: options.logDestination ? 'json' : 'auto',
        admin: { user: 'admin', password: 'bench-password' },
        plugins: options.plugins ?? ['search'],
      },
      services: { search: { port: 0, host: '127.0.0.1' } },
    },
  });
  const runtime = new Runtime({ config, logDestination: options.logDestination });
  await runtime.start();
  const base = runtime.url('search');
  const headers = {
    authorization: `Basic ${Buffer.from('admin:bench-password').toString('base64')}`,
    'content-type': 'application/json',
  };
  const post = async (url: string, body: unknown) => {
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  await post(`${base}/api/sn`, {
    name: 'Debian',
    fields: boosted(debianSiteFields('body')),
    defaultTitleField: 'title',
    defaultTextField: 'body',
    defaultDescriptionField: 'body',
    defaultURLField: null,
  });
  const batch = 10_000;
  for (let from = 0; from < documents.length; from += batch) {
    const last = from + batch >= documents.length;
    const turingDocuments = documents
      .slice(from, from + batch)
      .map((d) => ({ locale: 'en_US', turSNJobAction: 'CREATE', siteNames: ['Debian'], attributes: asAttributes(d) }));
    await post(`${base}/api/sn/import${last ? '?wait=true' : ''}`, { turingDocuments });
  }
  await writeSearchSnapshot(runtime);
  const sites = new SiteStore(runtime.db, runtime.logger);
  await sites.load();
  const site: SiteConfig = sites.get('Debian');
  const engine = () =>
    runtime
      .resolve<{ indexes: { engine(siteId: string, locale: string): SearchEngine } }>('search.importer')
      .indexes.engine(site.site.id, 'en_US');
  const clearAnswers = () => post(`${base}/api/system/cache/clear?cache=answers`, {});
  const stop = async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { runtime, base, headers, dataDir, site, engine, clearAnswers, stop };
}
