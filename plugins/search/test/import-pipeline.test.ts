import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import type { EngineSchema, IndexableDocument } from '../engine/search-engine.js';
import { PreparedDocuments } from '../indexing/prepared-documents.js';
import type { SiteConfig } from '../store/site-types.js';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

// The import path: the store's batch statements, the indexer's read-ahead and steps, and the analysis made while
// a batch is written. Steps of 3 changes, so every read holds several steps and every batch spans steps.
const SMALL_STEPS = { plugins: { search: { indexer: { batchSize: 3, snapshotDelayMs: 0 } } } };

const item = (locale: string, action: string, attributes: object) => ({
  locale,
  turSNJobAction: action,
  siteNames: ['Sample'],
  attributes,
});

async function fresh(t: { teardown(fn: () => unknown): void }, dataDir?: string): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search'], ...(dataDir ? { dataDir } : {}), config: SMALL_STEPS });
  t.teardown(() => vela.stop());
  return vela;
}

test('a batch of creations, replacements and deletions over two locales is stored as its last versions, logged in order, and searchable so', async (t) => {
  const vela = await fresh(t);
  const site = await createSite(vela);
  const docs = makeDocs(8);
  await importDocs(vela, docs.slice(0, 6));
  const renamed = { ...docs[2]!, title: 'renamed package', type: 'page' };
  const result = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      item('en_US', 'DELETE', { id: docs[0]!.id }),
      item('en_US', 'CREATE', { ...docs[2]!, title: 'first rename' }),
      item('pt_BR', 'CREATE', docs[6]!),
      item('en_US', 'CREATE', renamed),
      item('en_US', 'CREATE', docs[7]!),
      item('en_US', 'DELETE', { id: docs[1]!.id }),
      item('en_US', 'CREATE', docs[1]!),
    ],
  });
  t.is(result.status, 200);
  t.is(result.body.accepted, 7);

  const db = vela.runtime.db;
  const stored = await db('search_documents')
    .where({ site_id: site.id })
    .select('locale', 'doc_id', 'doc_type', 'attributes', 'updated_at')
    .orderBy(['locale', 'doc_id']);
  const expected = [...docs.slice(1, 6).map((d) => (d.id === renamed.id ? renamed : d)), docs[7]!].sort((a, b) =>
    a.id < b.id ? -1 : 1,
  );
  t.deepEqual(
    stored.filter((r) => r.locale === 'en_US').map((r) => [r.doc_id, r.doc_type, r.attributes]),
    expected.map((d) => [d.id, d.id === renamed.id ? 'page' : null, JSON.stringify(d)]),
  );
  t.deepEqual(
    stored.filter((r) => r.locale === 'pt_BR').map((r) => [r.doc_id, r.attributes]),
    [[docs[6]!.id, JSON.stringify(docs[6])]],
  );
  t.true(stored.every((r) => typeof r.updated_at === 'string' && r.updated_at !== ''));

  // The log keeps every change of the second batch, in the order sent (the creation of the same document twice too).
  const log = await db('search_changes')
    .where({ site_id: site.id })
    .select('seq', 'locale', 'action', 'doc_id')
    .orderBy('seq');
  t.deepEqual(
    log.slice(6).map((r) => [r.locale, r.action, r.doc_id]),
    [
      ['en_US', 'DELETE', docs[0]!.id],
      ['en_US', 'CREATE', docs[2]!.id],
      ['pt_BR', 'CREATE', docs[6]!.id],
      ['en_US', 'CREATE', docs[2]!.id],
      ['en_US', 'CREATE', docs[7]!.id],
      ['en_US', 'DELETE', docs[1]!.id],
      ['en_US', 'CREATE', docs[1]!.id],
    ],
  );
  t.deepEqual(
    log.map((r) => Number(r.seq)),
    log.map((_, i) => Number(log[0]!.seq) + i),
  );

  const ids = async (query: string) =>
    (await search(vela, `${query}&rows=20&sort=id:asc`)).body.results.document.map((d: any) => d.fields.id);
  t.deepEqual(
    await ids('q=*&_setlocale=en_US'),
    expected.map((d) => d.id),
  );
  t.deepEqual(await ids('q=*&_setlocale=pt_BR'), [docs[6]!.id]);
  t.deepEqual(await ids('q=renamed&_setlocale=en_US'), [renamed.id]);
  t.deepEqual(await ids('q=first&_setlocale=en_US'), []);
});

test('the index an import builds answers as the index rebuilt from the stored documents does', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-import-pipeline-'));
  const docs = makeDocs(300);
  const queries = [
    'q=*&_setlocale=en_US&rows=50',
    'q=editor&_setlocale=en_US&rows=50',
    'q=python%20library&_setlocale=en_US&rows=50&fq[]=arch:all',
    'q=*&_setlocale=en_US&rows=50&sort=title:asc',
  ];
  const answers = async (vela: TestRuntime) => {
    const out = [];
    for (const query of queries) {
      const r = await search(vela, query);
      out.push({
        count: r.body.queryContext.count,
        ids: r.body.results.document.map((d: any) => d.fields.id),
        facets: r.body.widget.facet,
      });
    }
    return out;
  };
  const first = await startTestRuntime({ plugins: ['search'], dataDir, config: SMALL_STEPS });
  await createSite(first);
  // Batches of several sizes, some replacing documents of the one before.
  for (const [from, to] of [
    [0, 120],
    [100, 210],
    [200, 300],
  ] as const) {
    await importDocs(first, docs.slice(from, to));
  }
  const imported = await answers(first);
  await first.runtime.stop();
  // Without snapshots the restart rebuilds every index from the stored documents.
  const second = await fresh(t, dataDir);
  t.true(second.logs.some((l) => l.msg === 'search index rebuilt' && l.documents === 300));
  t.deepEqual(await answers(second), imported);
});

test('an analysis made while the batch was written is taken once, and only for the same version under the same settings', (t) => {
  const prepared = new PreparedDocuments();
  const config = { site: { id: 's' } } as unknown as SiteConfig;
  const schema: EngineSchema = { facetFields: [], numberFields: [], stringFields: [] };
  const attributes = { id: 'a', title: 'A' };
  const indexable: IndexableDocument = { id: 'a', text: 'A', facets: {}, numbers: {}, strings: {} };
  const put = () => prepared.put(attributes, { id: 'a', config, schema, locale: 'en_US', indexable });

  put();
  t.is(prepared.take('a', attributes, config, schema, 'en_US'), indexable);
  t.is(prepared.take('a', attributes, config, schema, 'en_US'), undefined, 'taken once');

  put();
  t.is(
    prepared.take('a', { ...attributes }, config, schema, 'en_US'),
    undefined,
    'another version of the document (an equal copy)',
  );
  t.is(prepared.take('a', attributes, config, schema, 'en_US'), indexable);
  for (const [id, otherConfig, otherSchema, locale] of [
    ['b', config, schema, 'en_US'],
    ['a', { ...config }, schema, 'en_US'],
    ['a', config, { ...schema }, 'en_US'],
    ['a', config, schema, 'pt_BR'],
  ] as const) {
    put();
    t.is(prepared.take(id, attributes, otherConfig as SiteConfig, otherSchema, locale), undefined);
  }
});
