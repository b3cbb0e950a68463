import test from 'ava';
import { getIntrospectionQuery } from 'graphql';
import type { TestRuntime } from 'vela/testing';
import { json } from '../../search/test/fixtures.js';
import { startGraphql, startGraphqlWithDocs } from './fixtures.js';

// One runtime with the default limits but time, the one that depends on the machine's load (this file's tests
// run at once): queries within the limits must not fail on a busy machine. Tests of other limits start their own.
let vela: TestRuntime;
test.before(async () => {
  vela = await startGraphqlWithDocs({ timeBudgetMs: 20_000 }, 300);
});
test.after.always(() => vela?.stop());

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  body: any;
}

async function post(runtime: TestRuntime, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const r = await runtime.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return {
    status: r.status,
    bytes: Buffer.byteLength(text),
    ms: Math.round(performance.now() - started),
    body: JSON.parse(text),
  };
}

const gql = (query: string, variables?: Record<string, unknown>) => post(vela, { query, variables });
const codes = (answer: Answer) => (answer.body.errors ?? []).map((e: any) => e.extensions?.code);
const search = (alias: string, params = 'rows: 50') =>
  `${alias}: siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { q: "*", ${params} }) { results { document { source fields } } }`;
const aliases = (count: number, params?: string) =>
  `{ ${Array.from({ length: count }, (_, i) => search(`a${i}`, params)).join(' ')} }`;

/** Every error in the one documented shape: a message and extensions.code. */
function assertShape(t: import('ava').ExecutionContext, answer: Answer): void {
  t.true(Array.isArray(answer.body.errors) && answer.body.errors.length > 0, JSON.stringify(answer.body));
  for (const error of answer.body.errors) {
    t.is(typeof error.message, 'string');
    t.is(typeof error.extensions?.code, 'string', JSON.stringify(error));
  }
}

test('the 2,000-alias attack (a 235 KiB body, rows 50 each) is refused before it is parsed', async (t) => {
  const query = aliases(2000);
  t.true(query.length > 200_000, `${query.length} bytes`);
  const r = await gql(query);
  t.log(`refused in ${r.ms} ms with ${r.bytes} bytes`);
  t.is(r.status, 413);
  t.deepEqual(codes(r), ['payload_too_large']);
  assertShape(t, r);
  t.true(r.bytes < 1000);
  // The service answers as before.
  t.true((await gql('{ siteNames }')).body.data.siteNames.includes('Sample'));
});

test('with a larger body limit, the same attack is refused at its token count', async (t) => {
  const roomy = await startGraphql({ bodyLimit: '1mb' });
  t.teardown(() => roomy.stop());
  const r = await post(roomy, { query: aliases(2000) });
  t.log(`refused in ${r.ms} ms with ${r.bytes} bytes`);
  t.is(r.status, 200);
  t.deepEqual(codes(r), ['query_too_large']);
  t.is(r.body.data, undefined);
  t.like(r.body.errors[0].extensions, { limit: 2000 });
});

test('aliases, siteSearch calls and total rows are limited, each with its own code', async (t) => {
  const manyAliases = await gql(`{ ${Array.from({ length: 31 }, (_, i) => `n${i}: siteNames`).join(' ')} }`);
  t.deepEqual(codes(manyAliases), ['alias_limit_exceeded']);
  t.like(manyAliases.body.errors[0].extensions, { limit: 30, found: 31 });

  const manySearches = await gql(aliases(11, 'rows: 1'));
  t.deepEqual(codes(manySearches), ['site_search_limit_exceeded']);
  t.like(manySearches.body.errors[0].extensions, { limit: 10, found: 11 });

  const manyRows = await gql(aliases(3, 'rows: 400'));
  t.deepEqual(codes(manyRows), ['rows_limit_exceeded']);
  t.like(manyRows.body.errors[0].extensions, { limit: 1000, found: 1200 });
  assertShape(t, manyRows);
  t.is(manyRows.body.data, undefined, 'nothing ran');
});

test('rows count through variables and fragments, and a call without rows counts its site rowsPerPage', async (t) => {
  const viaVariables = await gql(
    'query($p: SearchParamsInput) { a: siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: $p) { queryContext { count } } b: siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: $p) { queryContext { count } } }',
    { p: { rows: 600 } },
  );
  t.deepEqual(codes(viaVariables), ['rows_limit_exceeded']);
  t.like(viaVariables.body.errors[0].extensions, { found: 1200 });

  const viaFragments = await gql(
    `query { ...S ...T } fragment S on Query { ${search('a', 'rows: 500')} } fragment T on Query { ${search('b', 'rows: 501')} }`,
  );
  t.deepEqual(codes(viaFragments), ['rows_limit_exceeded']);

  await json(vela, 'POST', '/api/sn', { name: 'Big Pages', rowsPerPage: 600 });
  const byDefault = await gql(
    '{ a: siteSearch(siteName: BIG_PAGES, locale: "en_US") { queryContext { count } } b: siteSearch(siteName: BIG_PAGES, locale: "en_US") { queryContext { count } } }',
  );
  t.deepEqual(codes(byDefault), ['rows_limit_exceeded']);
  t.like(byDefault.body.errors[0].extensions, { found: 1200 });
});

test('depth is limited; the standard introspection query still works', async (t) => {
  const nested = (levels: number) =>
    `{ __schema { queryType { ${'ofType { '.repeat(levels)}name ${'} '.repeat(levels)}} } }`;
  const deep = await gql(nested(13));
  t.deepEqual(codes(deep), ['depth_limit_exceeded']);
  t.like(deep.body.errors[0].extensions, { limit: 15, found: 16 });
  t.is(deep.body.data, undefined);
  const atTheLimit = await gql(nested(12));
  t.is(atTheLimit.body.errors, undefined, JSON.stringify(atTheLimit.body));
  const introspection = await gql(getIntrospectionQuery());
  t.is(introspection.body.errors, undefined);
  t.truthy(introspection.body.data.__schema.queryType);
});

test('fields spread through nested fragments are refused without being expanded', async (t) => {
  // 2^25 siteSearch selections once expanded; graphql itself would run the search once, but nothing of
  // this size is read further.
  const fragments = Array.from({ length: 25 }, (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} }`).join(' ');
  const query = `query { ...F25 } fragment F0 on Query { siteSearch(siteName: SAMPLE, locale: "en_US") { queryContext { count } } } ${fragments}`;
  const r = await gql(query);
  t.log(`refused in ${r.ms} ms`);
  t.true(codes(r).includes('selection_limit_exceeded'), JSON.stringify(r.body));
  assertShape(t, r);

  const wide = await gql(`{ ${'siteNames '.repeat(1001)}}`);
  t.deepEqual(codes(wide), ['selection_limit_exceeded']);
  t.like(wide.body.errors[0].extensions, { limit: 1000, found: 1001 });
});

test('a search that would start after the time budget answers time_budget_exceeded; the others their data', async (t) => {
  const hurried = await startGraphqlWithDocs({ timeBudgetMs: 1 }, 300);
  t.teardown(() => hurried.stop());
  const r = await post(hurried, { query: aliases(10, 'rows: 20') });
  t.is(r.status, 200);
  assertShape(t, r);
  t.true(
    codes(r).every((code: string) => code === 'time_budget_exceeded'),
    JSON.stringify(codes(r)),
  );
  const refused = r.body.errors.map((e: any) => e.path[0]);
  for (const alias of refused) t.is(r.body.data[alias], null);
  t.like(r.body.errors[0].extensions, { limit: 1 });
  // The same query within a budget that fits it answers every search.
  const calm = await gql(aliases(10, 'rows: 20'));
  t.is(calm.body.errors, undefined);
  t.is(calm.body.data.a9.results.document.length, 20);
});

test('an expensive operation is cut off at its time budget: a search past it is not written, each cut search is null with one error', async (t) => {
  const hurried = await startGraphqlWithDocs({ timeBudgetMs: 5 }, 300);
  t.teardown(() => hurried.stop());
  const full =
    'pagination { text href page } queryContext { count } results { document { source elevate fields metadata { name values { label link } } } } widget { facet { name facets { label count link } } }';
  const query = `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { q: "*", rows: 100 }) { ${full} }`).join(' ')} }`;
  const roomy = await startGraphqlWithDocs({ timeBudgetMs: 60_000 }, 300);
  t.teardown(() => roomy.stop());
  await post(roomy, { query }); // warm up, as the hurried runtime is below
  const whole = await post(roomy, { query });
  t.is(whole.body.errors, undefined);
  await post(hurried, { query: aliases(1, 'rows: 100') });
  const cut = await post(hurried, { query });
  t.log(`the whole operation: ${whole.ms} ms, ${whole.bytes} bytes; cut at 5 ms: ${cut.ms} ms, ${cut.bytes} bytes`);
  t.is(cut.status, 200);
  t.true(Array.isArray(cut.body.errors), 'the operation was cut');
  assertShape(t, cut);
  t.true(
    codes(cut).every((code: string) => code === 'time_budget_exceeded'),
    JSON.stringify(codes(cut)),
  );
  const cutAliases = cut.body.errors.map((e: any) => e.path.join('.'));
  t.is(new Set(cutAliases).size, cutAliases.length, 'one error per cut search');
  t.true(cutAliases.length > 0 && cutAliases.length <= 10, JSON.stringify(cutAliases));
  for (let i = 0; i < 10; i++) {
    const alias = `a${i}`;
    if (cutAliases.includes(alias)) t.is(cut.body.data[alias], null, `${alias} cut: null, no partial result`);
    else t.is(cut.body.data[alias].results.document.length, 100, `${alias} finished: whole`);
  }
  // Bytes, not milliseconds: how long either took depends on the machine, what was written does not.
  t.true(cut.bytes < whole.bytes, 'less was written');
});

test('the answer stops growing at maxResponseBytes', async (t) => {
  const small = await startGraphqlWithDocs({ maxResponseBytes: 30000, timeBudgetMs: 60_000 }, 300);
  t.teardown(() => small.stop());
  const r = await post(small, { query: aliases(10, 'rows: 50') });
  t.is(r.status, 200);
  t.true(codes(r).includes('response_too_large'), JSON.stringify(codes(r)));
  t.true(r.bytes < 30000 + 5000, `${r.bytes} bytes`);
  t.like(r.body.errors.find((e: any) => e.extensions.code === 'response_too_large').extensions, { limit: 30000 });
});

test('refusals follow graphql-http: 200 for application/json, 400 for application/graphql-response+json', async (t) => {
  const strict = await post(vela, { query: aliases(11, 'rows: 1') }, { accept: 'application/graphql-response+json' });
  t.is(strict.status, 400);
  t.deepEqual(codes(strict), ['site_search_limit_exceeded']);
  const unknownField = await gql('{ nope }');
  t.is(unknownField.status, 200);
  t.deepEqual(codes(unknownField), ['graphql_validation_failed']);
  const syntax = await gql('{ siteNames');
  t.deepEqual(codes(syntax), ['graphql_parse_failed']);
  const noQuery = await post(vela, { variables: {} });
  t.is(noQuery.status, 400);
  t.deepEqual(codes(noQuery), ['bad_request']);
  const badJson = await post(vela, '{"query": ');
  t.is(badJson.status, 400);
  t.deepEqual(codes(badJson), ['invalid_json']);
  const deepVariables = await post(
    vela,
    `{"query": "{ siteNames }", "variables": {"v": ${'['.repeat(100)}${']'.repeat(100)}}}`,
  );
  t.is(deepVariables.status, 400);
  t.deepEqual(codes(deepVariables), ['bad_request']);
  const unknownOperation = await post(vela, { query: 'query A { siteNames }', operationName: 'B' });
  t.deepEqual(codes(unknownOperation), ['bad_user_input']);
});

test('search errors carry the REST error code', async (t) => {
  const r = await gql('{ siteSearch(siteName: SAMPLE, locale: "fr_FR") { queryContext { count } } }');
  t.is(r.body.data.siteSearch, null);
  t.deepEqual(codes(r), ['locale_not_found']);
  const rows = await gql(
    '{ siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { fq: ["nocolon"] }) { queryContext { count } } }',
  );
  t.deepEqual(codes(rows), ['invalid_parameter']);
  const variable = await gql(
    'query($r: Int) { siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { rows: $r }) { queryContext { count } } }',
    {
      r: 'many',
    },
  );
  t.deepEqual(codes(variable), ['bad_user_input']);
});

test('queries within the limits answer as before', async (t) => {
  const r = await gql(`{ siteNames ${aliases(10, 'rows: 100').slice(1, -1)} }`);
  t.is(r.body.errors, undefined, JSON.stringify(r.body.errors));
  t.is(r.body.data.a0.results.document.length, 100);
  t.is(r.body.data.a9.results.document.length, 100);
  const withFragment = await gql(
    `query Q { ...Both } fragment Both on Query { siteNames ${search('one', 'rows: 5')} }`,
  );
  t.is(withFragment.body.data.one.results.document.length, 5);
});
