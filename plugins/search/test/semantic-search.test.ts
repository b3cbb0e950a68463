import { readFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import {
  manifest,
  packageRoot,
  postgresReachable,
  startTestRuntimeFor,
  type TestRuntime,
  testDatabase,
  writePlugins,
} from 'vela/testing';
import { checkPluginBoundaries } from '../../../scripts/lint/plugin-boundaries.js';
import { NO_RETRIEVER, NOTHING_TO_EMBED } from '../query/semantic.js';
import type { FixedVectors } from './fixtures/fixed-vectors-plugin.js';
import { createSite, importDocs, json, search } from './fixtures.js';

// The semantic parameter over real HTTP, with a retriever whose answers are set by hand (fixtures/fixed-vectors-plugin.ts,
// loaded from the loader path as a plugin of its own): what each mode finds, that filters, facets, sorts, paging,
// groups, spotlights and More Like This work on the fused candidates, and every fallback with its reason.

const vectorsPlugin = {
  manifest: manifest('fixed-vectors', { service: 'search', dependsOn: ['search'] }),
  files: {
    'package.json': JSON.stringify({
      name: 'fixed-vectors',
      type: 'module',
      devDependencies: { '@vela/plugin-search': '1.0.0' },
    }),
    'index.ts': readFileSync(new URL('./fixtures/fixed-vectors-plugin.ts', import.meta.url), 'utf8'),
  },
};

/**
 * "python" finds d1 (three times) before d2 (once) by keyword; the retriever finds d3, d1, d4 near it (and an id
 * the site does not have). Fused (k 60): d1 1/61 + 1/62, d3 1/61, d2 1/62, d4 1/63.
 */
const DOCS = [
  { id: 'd1', title: 'python editor', text: 'python python for editing', section: 'editors', size: 10 },
  { id: 'd2', title: 'python library', text: 'a library', section: 'libs', size: 20 },
  { id: 'd3', title: 'audio server', text: 'sound for the desktop', section: 'editors', size: 30 },
  { id: 'd4', title: 'terminal tool', text: 'a shell', section: 'devel', size: 40 },
  { id: 'd5', title: 'graphics program', text: 'drawing', section: 'devel', size: 50 },
];
const READY = { ready: true, rrfK: 60, window: 10 } as const;
const HYBRID_PYTHON = ['d1', 'd3', 'd2', 'd4'];

const vectors: FixedVectors = {
  status: READY,
  nearest: {},
  similar: [],
  asked: [],
  indexed: [],
};
(globalThis as { fixedVectors?: FixedVectors }).fixedVectors = vectors;

function resetVectors(): void {
  Object.assign(vectors, {
    status: READY,
    nearest: {
      python: [
        { id: 'd3', score: 0.9 },
        { id: 'd1', score: 0.8 },
        { id: 'd4', score: 0.5 },
        { id: 'gone', score: 0.4 },
      ],
      library: [{ id: 'd5', score: 0.7 }],
    },
    similar: [
      { id: 'd1', score: 0.9 },
      { id: 'd5', score: 0.8 },
      { id: 'd4', score: 0.7 },
    ],
    failing: 'broken',
    asked: [],
    indexed: [],
    indexedThrows: false,
  });
}

async function loaderPath(): Promise<string[]> {
  return [path.join(packageRoot, 'plugins'), await writePlugins([vectorsPlugin])];
}

type Engine = 'memory' | 'postgres';

/** A search runtime with the fixture retriever (unless `withVectors` is false) and the Sample site holding DOCS. */
async function startSemantic(
  t: ExecutionContext,
  options: { engine?: Engine; withVectors?: boolean; plugins?: string[] } = {},
): Promise<TestRuntime> {
  resetVectors();
  const postgres = options.engine === 'postgres';
  const vela = await startTestRuntimeFor(t, {
    plugins: [
      'search',
      ...(postgres ? ['search-postgres'] : []),
      ...(options.withVectors === false ? [] : ['fixed-vectors']),
      ...(options.plugins ?? []),
    ],
    loaderPath: await loaderPath(),
    ...(postgres
      ? { databaseUrl: (await testDatabase(t)).url, config: { plugins: { search: { engine: 'postgres' } } } }
      : {}),
  });
  await createSite(vela, 'Sample', { defaultLocale: 'en_US', mlt: true, spotlightWithResults: true });
  await importDocs(vela, DOCS);
  return vela;
}

const ids = (r: { body: any }) =>
  r.body.results.document.map((d: any) => (d.elevate ? `*${d.fields.title}` : d.fields.id));
const semanticOf = (r: { body: any }) => r.body.queryContext.semantic;
const facetCounts = (r: { body: any }, name: string) =>
  r.body.widget.facet
    .find((group: any) => group.name === name)
    ?.facets.map((item: any) => `${item.label}=${item.count}`);

/** Every mode on one runtime: the cases that depend on the engine. */
async function checkModes(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  const keyword = await search(vela, 'q=python');
  t.deepEqual(ids(keyword), ['d1', 'd2'], 'keyword is the default, as before');
  t.deepEqual(semanticOf(keyword), { requested: 'keyword', mode: 'keyword' });
  t.false(
    vectors.asked.some((asked) => asked.call === 'nearest'),
    'a keyword search asks no vectors',
  );

  const hybrid = await search(vela, 'q=python&semantic=hybrid');
  t.is(hybrid.status, 200, JSON.stringify(hybrid.body));
  t.deepEqual(ids(hybrid), HYBRID_PYTHON, 'both sides found d1: first; d3, found by vectors only, is in');
  t.is(hybrid.body.queryContext.count, 4, 'an id the site does not have is left out');
  t.deepEqual(semanticOf(hybrid), { requested: 'hybrid', mode: 'hybrid', rrfK: 60, window: 10 });
  t.like(
    vectors.asked.find((asked) => asked.call === 'nearest'),
    { text: 'python', locale: 'en_US', k: 10 },
  );
  t.true(
    hybrid.body.pagination.every((item: any) => item.href.includes('semantic=hybrid')),
    'links keep the mode',
  );

  const vector = await search(vela, 'q=python&semantic=vector');
  t.deepEqual(ids(vector), ['d3', 'd1', 'd4'], 'by cosine score');
  t.deepEqual(semanticOf(vector), { requested: 'vector', mode: 'vector', window: 10 });

  const filtered = await search(vela, 'q=python&semantic=hybrid&fq[]=section:editors');
  t.deepEqual(ids(filtered), ['d1', 'd3']);
  t.deepEqual(facetCounts(hybrid, 'section'), ['editors=2', 'devel=1', 'libs=1'], 'facets count the candidates');

  const page2 = await search(vela, 'q=python&semantic=hybrid&rows=2&p=2');
  t.deepEqual(ids(page2), ['d2', 'd4']);
  t.like(page2.body.queryContext, { count: 4, pageCount: 2, pageStart: 3, pageEnd: 4 });

  const bySize = await search(vela, 'q=python&semantic=hybrid&sort=size:desc');
  t.deepEqual(ids(bySize), ['d4', 'd3', 'd2', 'd1']);

  const grouped = await search(vela, 'q=python&semantic=hybrid&group=section');
  t.deepEqual(
    grouped.body.groups.map((group: any) => [
      group.name,
      group.count,
      group.results.document.map((d: any) => d.fields.id),
    ]),
    [
      ['editors', 2, ['d1', 'd3']],
      ['libs', 1, ['d2']],
      ['devel', 1, ['d4']],
    ],
  );

  // More Like This asks the retriever for the page's first results, and leaves the page out.
  t.deepEqual(
    hybrid.body.widget.similar.map((s: any) => s.id),
    ['d5'],
  );
  t.deepEqual(
    keyword.body.widget.similar.map((s: any) => s.id),
    ['d5', 'd4'],
  );
  t.like(
    vectors.asked.find((asked) => asked.call === 'similar'),
    { ids: ['d1', 'd2'], locale: 'en_US' },
  );
}

test.serial(
  'hybrid fuses the keyword and vector candidates, vector takes the nearest, keyword is unchanged (memory engine)',
  async (t) => {
    t.timeout(60_000);
    await checkModes(t, await startSemantic(t));
  },
);

(postgresReachable() ? test.serial : test.skip)(
  'hybrid fuses the keyword and vector candidates, vector takes the nearest, keyword is unchanged (PostgreSQL engine)',
  async (t) => {
    t.timeout(60_000);
    await checkModes(t, await startSemantic(t, { engine: 'postgres' }));
  },
);

test.serial('a mode that cannot run searches by keyword and says why', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t);
  const fellBack = (r: { body: any }, reason: string) => {
    t.deepEqual(semanticOf(r), { requested: 'hybrid', mode: 'keyword', reason });
  };

  const everything = await search(vela, 'q=*&semantic=hybrid');
  fellBack(everything, NOTHING_TO_EMBED);
  t.is(everything.body.queryContext.count, 5);

  const failing = await search(vela, 'q=broken&semantic=hybrid');
  t.is(failing.status, 200);
  fellBack(failing, 'the vectors could not be searched: the model server is away');

  vectors.status = { ready: false, reason: 'the vectors of 2 of 5 documents are still to be made' };
  vectors.asked = [];
  const notReady = await search(vela, 'q=python&semantic=hybrid');
  t.deepEqual(ids(notReady), ['d1', 'd2']);
  fellBack(notReady, 'the vectors of 2 of 5 documents are still to be made');
  t.deepEqual(semanticOf(await search(vela, 'q=python&semantic=vector')), {
    requested: 'vector',
    mode: 'keyword',
    reason: 'the vectors of 2 of 5 documents are still to be made',
  });
  t.false(
    vectors.asked.some((asked) => asked.call === 'similar'),
    'More Like This by terms while the vectors are not ready',
  );

  const without = await startSemantic(t, { withVectors: false });
  const noRetriever = await search(without, 'q=python&semantic=hybrid');
  t.deepEqual(ids(noRetriever), ['d1', 'd2']);
  fellBack(noRetriever, NO_RETRIEVER);
  t.is(NO_RETRIEVER, 'no plugin keeps vectors (semantic)');
});

test.serial('semantic takes keyword, hybrid or vector in any case; anything else is a 400 naming it', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t);
  t.deepEqual(ids(await search(vela, 'q=python&semantic=HYBRID')), HYBRID_PYTHON);
  t.deepEqual(semanticOf(await search(vela, 'q=python&semantic=')).mode, 'keyword');
  const bogus = await search(vela, 'q=python&semantic=bogus');
  t.is(bogus.status, 400);
  t.deepEqual(bogus.body, {
    error: 'invalid_parameter',
    message: 'semantic must be keyword, hybrid or vector, got "bogus"',
  });
  const posted = await json(vela, 'POST', '/api/sn/Sample/search', { query: 'python', semantic: 'bogus' });
  t.like(posted, { status: 400, body: { error: 'invalid_parameter' } });
  const wrongType = await json(vela, 'POST', '/api/sn/Sample/search', { query: 'python', semantic: 5 });
  t.like(wrongType, { status: 400, body: { error: 'validation_failed' } });
});

test.serial('POST takes semantic in its body, and its links carry it', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t);
  const posted = await json(vela, 'POST', '/api/sn/Sample/search', { query: 'python', semantic: 'hybrid', rows: 3 });
  t.is(posted.status, 200, JSON.stringify(posted.body));
  t.deepEqual(ids(posted), HYBRID_PYTHON.slice(0, 3));
  t.deepEqual(semanticOf(posted).mode, 'hybrid');
  const next = posted.body.pagination.find((item: any) => item.type === 'NEXT');
  t.regex(next.href, /semantic=hybrid/);
  const followed = await json(vela, 'GET', next.href, undefined, { authorization: '' });
  t.deepEqual(ids(followed), ['d4']);
});

test.serial('spotlights keep their slots in a hybrid search', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t);
  const created = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Libraries',
    terms: ['library'],
    documents: [{ position: 1, title: 'All the libraries' }],
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  // Keyword finds d2, vectors d5: a tie of 1/61, the keyword side first.
  const r = await search(vela, 'q=library&semantic=hybrid');
  t.deepEqual(ids(r), ['*All the libraries', 'd2', 'd5']);
  t.is(r.body.widget.spotlights.length, 1);
});

test.serial('hybrid answers are not kept by the answer cache: vectors change after the index does', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t);
  for (let i = 0; i < 2; i++) {
    const r = await vela.fetch('search', '/api/sn/Sample/search?q=python&semantic=hybrid');
    t.is(r.headers.get('x-cache'), 'MISS');
  }
  const without = await startSemantic(t, { withVectors: false });
  await without.fetch('search', '/api/sn/Sample/search?q=python&semantic=hybrid');
  const again = await without.fetch('search', '/api/sn/Sample/search?q=python&semantic=hybrid');
  t.is(again.headers.get('x-cache'), 'HIT', 'without a retriever the fallback is what every later search answers');
});

test.serial('GraphQL siteSearch takes semantic and answers queryContext.semantic', async (t) => {
  t.timeout(60_000);
  const vela = await startSemantic(t, { plugins: ['graphql'] });
  const gql = async (query: string) => {
    const r = await vela.fetch('search', '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await r.json()) as any;
  };
  const answer = await gql(
    '{ siteSearch(siteName: "Sample", semantic: hybrid, searchParams: { q: "python" }) { queryContext { semantic { requested mode reason rrfK window } } results { document { fields } } } }',
  );
  t.deepEqual(answer.data.siteSearch.queryContext.semantic, {
    requested: 'hybrid',
    mode: 'hybrid',
    reason: null,
    rrfK: 60,
    window: 10,
  });
  t.deepEqual(
    answer.data.siteSearch.results.document.map((d: any) => d.fields.id),
    HYBRID_PYTHON,
  );
  const bogus = await gql('{ siteSearch(siteName: "Sample", semantic: bogus) { queryContext { count } } }');
  t.regex(bogus.errors[0].message, /SearchSemanticMode/);
  t.is(bogus.errors[0].extensions.code, 'graphql_validation_failed');
});

test.serial(
  'search.indexed tells each step, rebuild and drop; a tap that throws is logged and indexing goes on',
  async (t) => {
    t.timeout(60_000);
    const vela = await startSemantic(t);
    const site = (await json(vela, 'GET', '/api/sn')).body.find((s: any) => s.name === 'Sample');
    // The site's creation built its (empty) indexes; the import was one step.
    t.deepEqual(
      vectors.indexed
        .filter((changes) => changes.rebuilt)
        .map((changes) => changes.locale)
        .sort(),
      ['en_US', 'pt_BR'],
    );
    t.deepEqual(
      vectors.indexed.filter((changes) => !changes.rebuilt),
      [{ siteId: site.id, locale: 'en_US', upserted: DOCS.map((d) => d.id), removed: [], rebuilt: false }],
    );

    vectors.indexed = [];
    vectors.indexedThrows = true;
    const removed = await json(vela, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: 'd5' } }],
    });
    t.is(removed.status, 200, JSON.stringify(removed.body));
    t.deepEqual(vectors.indexed, [{ siteId: site.id, locale: 'en_US', upserted: [], removed: ['d5'], rebuilt: false }]);
    t.true(vela.logs.some((line) => line.msg === 'a search.indexed tap failed; indexing goes on'));
    t.is((await search(vela, 'q=*')).body.queryContext.count, 4, 'the step was applied all the same');

    vectors.indexedThrows = false;
    vectors.indexed = [];
    t.is((await json(vela, 'DELETE', `/api/sn/${site.id}`)).status, 200);
    t.deepEqual(
      vectors.indexed.map((changes) => [changes.locale, changes.rebuilt, changes.upserted, changes.removed]).sort(),
      [
        ['en_US', true, [], []],
        ['pt_BR', true, [], []],
      ],
    );
  },
);

test('the fixture keeps the boundary rule: the search plugin only through import type of its contract', async (t) => {
  const dir = (await loaderPath())[1]!;
  t.deepEqual(checkPluginBoundaries(path.join(dir, 'fixed-vectors')), []);
});
