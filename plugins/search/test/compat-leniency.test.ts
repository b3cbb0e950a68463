import test, { type ExecutionContext } from 'ava';
import { postgresReachable, startTestRuntimeFor, type TestRuntime, testDatabase } from 'vela/testing';
import { createSite, importDocs, json, search } from './fixtures.js';

/**
 * What clients of the original send that it takes without an error, where Vela once answered 400: each is now
 * answered as the original answers it, with queryContext.warnings naming what was ignored or changed. The same
 * assertions run on SQLite, on PostgreSQL, and on PostgreSQL with the PostgreSQL engine.
 */

const pg = postgresReachable();

type Start = (t: ExecutionContext) => Promise<TestRuntime>;
const VARIANTS: Array<{ name: string; start: Start; skip: boolean }> = [
  { name: 'SQLite', skip: false, start: (t) => startTestRuntimeFor(t, { plugins: ['search'] }) },
  {
    name: 'PostgreSQL',
    skip: !pg,
    start: async (t) => startTestRuntimeFor(t, { plugins: ['search'], databaseUrl: (await testDatabase(t)).url }),
  },
  {
    name: 'PostgreSQL engine',
    skip: !pg,
    start: async (t) =>
      startTestRuntimeFor(t, {
        plugins: ['search', 'search-postgres'],
        databaseUrl: (await testDatabase(t)).url,
        config: { plugins: { search: { engine: 'postgres' } } },
      }),
  },
];

/** Seven packages: every section and arch pair, and one without an arch. */
const DOCS = [
  { id: 'py-all', section: 'python', arch: 'all', tags: ['role::program'] },
  { id: 'py-amd64', section: 'python', arch: 'amd64', tags: [] },
  { id: 'ed-all', section: 'editors', arch: 'all', tags: [] },
  { id: 'ed-amd64', section: 'editors', arch: 'amd64', tags: ['role::program'] },
  { id: 'net-all', section: 'net', arch: 'all', tags: [] },
  { id: 'net-amd64', section: 'net', arch: 'amd64', tags: [] },
  { id: 'py-noarch', section: 'python', tags: [] },
].map((doc, i) => ({
  title: `package ${doc.id}`,
  text: 'a package',
  size: i * 10,
  publication_date: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
  url: `https://packages.example/${doc.id}`,
  ...doc,
}));

async function sample(t: ExecutionContext, start: Start): Promise<TestRuntime> {
  const vela = await start(t);
  await createSite(vela);
  await importDocs(vela, DOCS);
  return vela;
}

const ids = (body: any): string[] => body.results.document.map((d: any) => d.fields.id).sort();
const codes = (body: any) => body.queryContext.warnings.map((w: any) => [w.code, w.parameter]);
const post = (vela: TestRuntime, body: object, query = '') =>
  json(vela, 'POST', `/api/sn/Sample/search${query}`, { rows: 50, locale: 'en_US', ...body });
const get = (vela: TestRuntime, query: string) => search(vela, `_setlocale=en_US&rows=50&${query}`);

for (const { name, start, skip } of VARIANTS) {
  const variant = skip ? test.skip : test;

  variant(
    `${name}: filters and targeting rules on fields the site does not have are answered with warnings`,
    async (t) => {
      const vela = await sample(t, start);
      const plain = await get(vela, 'q=*');
      t.is(plain.status, 200);
      t.deepEqual(plain.body.queryContext.warnings, [], 'nothing ignored: an empty list');

      const unknown = await get(vela, 'q=*&fq[]=nosuch:x');
      t.is(unknown.status, 200);
      t.is(unknown.body.queryContext.count, 0, 'a filter on a field nobody has matches nothing');
      t.deepEqual(unknown.body.queryContext.warnings, [
        {
          code: 'unknown_field',
          parameter: 'fq[]',
          message: 'fq[] names field "nosuch", which site "Sample" does not have: the filter matches no document',
        },
      ]);
      for (const param of ['fq.and[]', 'fqAnd[]', 'fq.or[]', 'fqOr[]']) {
        const r = await get(vela, `q=*&${param}=nosuch:x`);
        t.is(r.status, 200, param);
        t.is(r.body.queryContext.count, 0, param);
        t.deepEqual(codes(r.body), [
          ['unknown_field', param.startsWith('fq.and') || param.startsWith('fqAnd') ? 'fqAnd' : 'fqOr'],
        ]);
      }
      const body = await post(vela, { query: '*', fqAnd: ['nosuch:x'], fqOr: ['section:editors'] });
      t.deepEqual(ids(body.body), [], 'the AND part matches nothing, and it narrows the OR part');
      t.deepEqual(codes(body.body), [['unknown_field', 'fqAnd']]);

      const rule = await get(vela, 'q=*&tr[]=nosuch:x');
      t.is(rule.body.queryContext.count, DOCS.length, 'no document has the field, so the rule lets every one through');
      t.deepEqual(codes(rule.body), [['unknown_field', 'targetingRules']]);
      const ruleless = await post(vela, { query: '*', targetingRules: ['rule1', 'arch:all'] });
      t.deepEqual(ids(ruleless.body), ['ed-all', 'net-all', 'py-all', 'py-noarch'], 'rule1 filters nothing');
      t.deepEqual(ruleless.body.queryContext.warnings, [
        {
          code: 'rule_ignored',
          parameter: 'targetingRules',
          message: 'targetingRules item "rule1" is not field:value, so it filters nothing (as in the original)',
        },
      ]);
    },
  );

  variant(
    `${name}: an unusable sort is relevance and p below 1 is page 1, with warnings; real errors stay 400`,
    async (t) => {
      const vela = await sample(t, start);
      const inOrder = (body: any) => body.results.document.map((d: any) => d.fields.id);
      const relevance = inOrder((await get(vela, 'q=package')).body);
      t.not(inOrder((await get(vela, 'q=package&sort=size:desc')).body)[0], relevance[0], 'a usable sort reorders');
      for (const sort of ['date desc', 'date:asc', ':asc', 'tags:desc']) {
        const r = await get(vela, `q=package&sort=${encodeURIComponent(sort)}`);
        t.is(r.status, 200, sort);
        t.deepEqual(inOrder(r.body), relevance, sort);
        t.is(r.body.queryContext.query.sort, sort);
        t.deepEqual(codes(r.body), [['sort_ignored', 'sort']], sort);
      }
      const byDate = await post(vela, { query: '*', sort: 'date desc' });
      t.regex(
        byDate.body.queryContext.warnings[0].message,
        /^"date desc" names "date", which site "Sample" cannot sort by/,
      );

      const undated = await json(vela, 'POST', '/api/sn', {
        name: 'Undated',
        locales: ['en_US'],
        fields: [
          { name: 'id', type: 'STRING' },
          { name: 'title', type: 'TEXT' },
        ],
      });
      t.is(undated.status, 201);
      await importDocs(vela, [{ id: 'u1', title: 'one' }], 'Undated');
      const newest = await search(vela, 'q=*&sort=newest', 'Undated');
      t.is(newest.status, 200);
      t.deepEqual(codes(newest.body), [['sort_ignored', 'sort']]);
      t.is(newest.body.queryContext.count, 1);

      const zero = await search(vela, '_setlocale=en_US&q=*&rows=2&p=0');
      t.is(zero.status, 200);
      t.like(zero.body.queryContext, { page: 1, pageStart: 1, pageEnd: 2 });
      t.deepEqual(zero.body.queryContext.warnings, [
        { code: 'page_changed', parameter: 'p', message: 'p must be 1 or more, got "0": page 1 is answered' },
      ]);
      t.deepEqual(ids(zero.body), ids((await search(vela, '_setlocale=en_US&q=*&rows=2&p=1')).body));
      const negative = await json(vela, 'POST', '/api/sn/Sample/search', {
        query: '*',
        locale: 'en_US',
        rows: 2,
        page: -3,
      });
      t.is(negative.status, 200);
      t.is(negative.body.queryContext.page, 1);
      t.deepEqual(codes(negative.body), [['page_changed', 'page']]);

      for (const [query, message] of [
        ['q=*&p=abc', 'p must be a whole number from 1 to 2147483647, got "abc"'],
        ['q=*&p=99999999999', 'p must be a whole number from 1 to 2147483647, got "99999999999"'],
        [
          'q=*&fq.op=XOR',
          'fq.op must be AND, OR, NONE or DEFAULT (NONE, DEFAULT and empty leave it to the field, else the site), got "XOR"',
        ],
      ] as const) {
        const r = await search(vela, `_setlocale=en_US&${query}`);
        t.is(r.status, 400, query);
        t.deepEqual(r.body, { error: 'invalid_parameter', message }, query);
      }
    },
  );

  variant(`${name}: fq.and[] narrows fq.or[], whose values are alternatives`, async (t) => {
    const vela = await sample(t, start);
    // arch:all AND (python OR editors), on a site that joins a facet's values with AND.
    const spellings = [
      'fq.and[]=arch:all&fq.or[]=section:python&fq.or[]=section:editors',
      'fqAnd[]=arch:all&fqOr[]=section:python&fqOr[]=section:editors',
    ];
    for (const query of spellings) {
      const r = await get(vela, `q=*&${query}`);
      t.deepEqual(ids(r.body), ['ed-all', 'py-all'], query);
      t.deepEqual(r.body.queryContext.warnings, []);
      const or = await get(vela, `q=*&${query}&fqi.op=OR`);
      t.deepEqual(ids(or.body), ['ed-all', 'py-all'], `${query}: the item operator changes neither part`);
    }
    const body = await post(vela, { query: '*', fqAnd: ['arch:all'], fqOr: ['section:python', 'section:editors'] });
    t.deepEqual(ids(body.body), ['ed-all', 'py-all'], 'the POST body the same');
    // Only OR filters: a union; two AND fields: both must hold; two AND values of one field: both.
    t.deepEqual(ids((await get(vela, 'q=*&fq.or[]=section:net&fq.or[]=arch:all')).body), [
      'ed-all',
      'net-all',
      'net-amd64',
      'py-all',
    ]);
    t.deepEqual(ids((await get(vela, 'q=*&fq.and[]=section:net&fq.and[]=arch:all')).body), ['net-all']);
    t.deepEqual(ids((await get(vela, 'q=*&fq.and[]=section:net&fq.and[]=section:python')).body), []);
    // fq[] follows the operators in force: AND between facets here, so it narrows the OR part as fq.and[] does.
    t.deepEqual(ids((await get(vela, 'q=*&fq[]=arch:amd64&fq.or[]=section:net&fq.or[]=section:editors')).body), [
      'ed-amd64',
      'net-amd64',
    ]);
    // With OR between facets, fq[] joins the OR part.
    t.deepEqual(ids((await get(vela, 'q=*&fq[]=section:net&fq.or[]=section:editors&fq.op=OR')).body), [
      'ed-all',
      'ed-amd64',
      'net-all',
      'net-amd64',
    ]);
    // Targeting rules are a filter of their own: they narrow the OR part too.
    t.deepEqual(ids((await get(vela, 'q=*&fq.or[]=section:python&tr[]=arch:all')).body), ['py-all', 'py-noarch']);
    // ...and every facet count, even one that leaves out every filter (OR between facets and between values).
    const counted = await get(vela, 'q=*&tr[]=arch:all&fq[]=section:net&fq.op=OR&fqi.op=OR');
    const sections = counted.body.widget.facet.find((f: any) => f.name === 'section');
    t.deepEqual(Object.fromEntries(sections.facets.map((f: any) => [f.label, f.count])), {
      python: 2,
      editors: 1,
      net: 1,
    });
  });

  variant(`${name}: targeting rules with conditions are applied as the original applies them`, async (t) => {
    const vela = await sample(t, start);
    // Python packages must be arch:all (or have no arch); the others pass.
    const and = await post(vela, { query: '*', targetingRulesWithCondition: { 'section:python': ['arch:all'] } });
    t.is(and.status, 200);
    t.deepEqual(ids(and.body), ['ed-all', 'ed-amd64', 'net-all', 'net-amd64', 'py-all', 'py-noarch']);
    t.deepEqual(and.body.queryContext.warnings, []);
    const same = await post(vela, { query: '*', targetingRulesWithConditionAND: { 'section:python': ['arch:all'] } });
    t.deepEqual(ids(same.body), ids(and.body));

    // Editors must be arch:all or tagged role::program, or have neither field.
    const or = await post(vela, {
      query: '*',
      targetingRulesWithConditionOR: { 'section:editors': ['arch:all', 'tags:role::program'] },
    });
    t.deepEqual(ids(or.body), ['ed-all', 'ed-amd64', 'net-all', 'net-amd64', 'py-all', 'py-amd64', 'py-noarch']);
    const strict = await post(vela, {
      query: '*',
      targetingRulesWithConditionOR: { 'section:editors': ['arch:all', 'tags:nosuch'] },
    });
    t.deepEqual(ids(strict.body), ['ed-all', 'net-all', 'net-amd64', 'py-all', 'py-amd64', 'py-noarch']);

    // AND and OR rules of one condition both hold; two conditions each govern their own documents.
    const both = await post(vela, {
      query: '*',
      targetingRulesWithCondition: { 'section:python': ['arch:amd64'], 'section:net': ['arch:all'] },
      targetingRulesWithConditionOR: { 'section:python': ['tags:nosuch'] },
    });
    t.deepEqual(ids(both.body), ['ed-all', 'ed-amd64', 'net-all', 'py-amd64', 'py-noarch']);

    // Plain targetingRules win: the conditions are then not used.
    const plain = await post(vela, {
      query: '*',
      targetingRules: ['section:net'],
      targetingRulesWithCondition: { 'section:python': ['arch:all'] },
    });
    t.deepEqual(ids(plain.body), ['net-all', 'net-amd64']);

    // A condition that is not field:value on a facet field: no document meets it, so its rules bind none.
    const odd = await post(vela, { query: '*', targetingRulesWithCondition: { '(a OR b)': ['arch:all'] } });
    t.is(odd.body.queryContext.count, DOCS.length);
    t.deepEqual(codes(odd.body), [['rule_ignored', 'targetingRulesWithCondition']]);
    const bad = await post(vela, { query: '*', targetingRulesWithCondition: { 'section:python': 'arch:all' } });
    t.is(bad.status, 400);
    t.is(bad.body.error, 'invalid_parameter');

    // disableAutoComplete: the original reads it nowhere; it changes nothing.
    const quiet = await post(vela, { query: '*', disableAutoComplete: true });
    t.is(quiet.body.queryContext.count, DOCS.length);
    t.deepEqual(quiet.body.queryContext.warnings, []);
  });

  variant(`${name}: a field's boost ranks a match in it above a match in a field of lower boost`, async (t) => {
    const vela = await start(t);
    const docs = [
      { id: 'in-title', title: 'zebra crossing', text: 'quiet street' },
      { id: 'in-text', title: 'quiet street', text: 'zebra crossing' },
    ];
    for (const [site, titleBoost, textBoost] of [
      ['TitleFirst', 5, 1],
      ['TextFirst', 1, 5],
    ] as const) {
      const created = await json(vela, 'POST', '/api/sn', {
        name: site,
        locales: ['en_US'],
        fields: [
          { name: 'id', type: 'STRING' },
          { name: 'title', type: 'TEXT', boost: titleBoost },
          { name: 'text', type: 'TEXT', boost: textBoost },
        ],
      });
      t.is(created.status, 201);
      await importDocs(vela, docs, site);
    }
    const order = async (site: string) =>
      (await search(vela, 'q=zebra', site)).body.results.document.map((d: any) => d.fields.id);
    t.deepEqual(await order('TitleFirst'), ['in-title', 'in-text']);
    t.deepEqual(await order('TextFirst'), ['in-text', 'in-title']);
  });
}

test('GraphQL answers queryContext.warnings as REST does', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search', 'graphql'] });
  await createSite(vela);
  await importDocs(vela, DOCS);
  const r = await vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        '{ siteSearch(siteName: "Sample", locale: "en_US", searchParams: { p: 0, fq: ["nosuch:x"] }) { queryContext { count warnings { code parameter } } } }',
    }),
  });
  t.deepEqual(await r.json(), {
    data: {
      siteSearch: {
        queryContext: {
          count: 0,
          warnings: [
            { code: 'page_changed', parameter: 'p' },
            { code: 'unknown_field', parameter: 'fq[]' },
          ],
        },
      },
    },
  });
});
