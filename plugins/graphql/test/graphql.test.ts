import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import { importDocs, json, makeDocs, search } from '../../search/test/fixtures.js';
import { startGraphql } from './fixtures.js';

let vela: TestRuntime;
test.before(async () => {
  // The time budget has its own tests (graphql-limits, graphql-budget); here a busy machine must not cut the answers.
  vela = await startGraphql({ timeBudgetMs: 20_000 });
  await json(vela, 'POST', '/api/sn', { name: 'docs-2.0' });
  await importDocs(vela, makeDocs(120));
});
test.after.always(() => vela?.stop());

const gql = async (query: string) => {
  const r = await vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: r.status, body: (await r.json()) as any };
};

test('siteNames lists the sites; siteName takes each as a string or as the identifier clients of the original write', async (t) => {
  const r = await gql('{ siteNames }');
  t.deepEqual(r.body, { data: { siteNames: ['docs-2.0', 'Sample'] } });
  const type = await gql('{ __type(name: "SiteName") { kind } }');
  t.deepEqual(type.body.data.__type, { kind: 'SCALAR' }, 'a scalar: the schema does not change when a site is added');
  for (const siteName of ['DOCS_2_0', '"docs-2.0"', '"DOCS_2_0"']) {
    const found = await gql(`{ siteSearch(siteName: ${siteName}, locale: "en_US") { queryContext { index } } }`);
    t.deepEqual(found.body, { data: { siteSearch: { queryContext: { index: 'docs-2.0' } } } }, siteName);
  }
  const variable = await vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query($s: SiteName!) { siteSearch(siteName: $s, locale: "en_US") { queryContext { index } } }',
      variables: { s: 'Sample' },
    }),
  });
  t.deepEqual(await variable.json(), { data: { siteSearch: { queryContext: { index: 'Sample' } } } });
});

test('siteSearch answers from the same search code as REST, limited to the selected members', async (t) => {
  const r = await gql(`{
    siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { q: "editor", rows: 4, p: 2, fq: ["arch:amd64"], sort: "size:desc" }) {
      pagination { type text href page }
      queryContext { count page pageCount limit query { queryString locale sort } }
      results { document { source fields metadata { name values { label link } } } }
      widget { facet { name label { text } facets { label count link selected } } facetToRemove { facets { label link } } locales { locale link } }
    }
  }`);
  t.is(r.status, 200, JSON.stringify(r.body.errors));
  const g = r.body.data.siteSearch;
  const rest = (await search(vela, 'q=editor&_setlocale=en_US&p=2&rows=4&sort=size:desc&fq[]=arch:amd64')).body;
  t.deepEqual(g.queryContext, {
    count: rest.queryContext.count,
    page: 2,
    pageCount: rest.queryContext.pageCount,
    limit: 4,
    query: rest.queryContext.query,
  });
  t.deepEqual(
    g.results.document.map((d: any) => d.fields),
    rest.results.document.map((d: any) => d.fields),
  );
  t.deepEqual(
    g.results.document.map((d: any) => d.metadata),
    rest.results.document.map((d: any) => d.metadata),
  );
  t.deepEqual(g.pagination, rest.pagination, 'the same pre-built REST links');
  t.deepEqual(
    g.widget.facet.map((f: any) => [f.name, f.facets.map((i: any) => [i.label, i.count])]),
    rest.widget.facet.map((f: any) => [f.name, f.facets.map((i: any) => [i.label, i.count])]),
  );
  t.deepEqual(
    g.widget.locales.map((l: any) => l.locale),
    ['en_US', 'pt_BR'],
  );
  t.false('groups' in g, 'only the selected members come back');
});

test('fl limits the document fields; a name that is no site is site_not_found', async (t) => {
  const r = await gql(
    '{ siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { q: "*", rows: 1, fl: ["id", "section"] }) { results { document { fields } } } }',
  );
  t.deepEqual(
    Object.keys(r.body.data.siteSearch?.results.document[0].fields ?? {}).sort(),
    ['id', 'section'],
    JSON.stringify(r.body.errors),
  );
  const quoted = await gql('{ siteSearch(siteName: "Nope", locale: "en_US") { queryContext { count } } }');
  t.is(quoted.body.data.siteSearch, null);
  t.is(quoted.body.errors[0].extensions.code, 'site_not_found');
  const number = await gql('{ siteSearch(siteName: 12, locale: "en_US") { queryContext { count } } }');
  t.is(number.body.errors[0].extensions.code, 'graphql_validation_failed');
});

test('a search error comes back as a GraphQL error naming the problem', async (t) => {
  const r = await gql(
    '{ siteSearch(siteName: SAMPLE, locale: "fr_FR", searchParams: { q: "x" }) { queryContext { count } } }',
  );
  t.is(r.body.data.siteSearch, null);
  t.regex(r.body.errors[0].message, /has no locale "fr_FR"/);
  const unknown = await gql('{ siteSearch(siteName: UNKNOWN, locale: "en_US") { queryContext { count } } }');
  t.is(unknown.body.data.siteSearch, null);
  t.is(
    unknown.body.errors[0].message,
    'siteName UNKNOWN names no site: write one of the other SiteName values (the siteNames query lists the sites)',
  );
});

test('introspection works and a new site can be searched without a restart', async (t) => {
  const r = await gql('{ __schema { queryType { fields { name args { name } } } } }');
  const fields = r.body.data.__schema.queryType.fields;
  t.deepEqual(
    fields.map((f: any) => f.name),
    ['siteNames', 'siteSearch'],
  );
  t.deepEqual(
    fields[1].args.map((a: any) => a.name),
    ['siteName', 'searchParams', 'locale', 'semantic', 'metadata'],
  );
  await json(vela, 'POST', '/api/sn', { name: 'Late Site' });
  const after = await gql('{ siteSearch(siteName: LATE_SITE, locale: "en_US") { queryContext { count index } } }');
  t.deepEqual(after.body.data.siteSearch.queryContext, { count: 0, index: 'Late Site' });
});
