import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { searchResponseSchema } from '../schemas/search-response.js';
import { createSite, type Doc, importDocs, json, makeDocs, rng, search, startSample } from './fixtures.js';

let vela: TestRuntime;
const docs = makeDocs(300);

test.before(async () => {
  // Exact matching only, so that the brute-force model's text rule holds; the prefix retry has its own test.
  vela = await startSample(docs, { wildcardNoResults: false });
});
test.after.always(() => vela?.stop());

type Filters = Array<[field: keyof Doc, value: string]>;
const FACETS = ['section', 'arch', 'tags'] as const;
const ITEM_OP: Record<string, 'AND' | 'OR'> = { section: 'AND', arch: 'AND', tags: 'OR' };
const valuesOf = (d: Doc, f: string): string[] => {
  const v = (d as any)[f];
  return Array.isArray(v) ? v : [String(v)];
};

/** The facet semantics, written out plainly over the stored documents. */
function bruteForce(matching: Doc[], filters: Filters, facetType: 'AND' | 'OR') {
  const byField = new Map<string, string[]>();
  for (const [f, v] of filters) byField.set(f, [...(byField.get(f) ?? []), v]);
  const passes = (d: Doc, ignore: Set<string> | '*') => {
    const results = [...byField]
      .filter(([f]) => ignore !== '*' && !ignore.has(f))
      .map(([f, vals]) =>
        ITEM_OP[f] === 'AND'
          ? vals.every((v) => valuesOf(d, f).includes(v))
          : vals.some((v) => valuesOf(d, f).includes(v)),
      );
    if (results.length === 0) return true;
    return facetType === 'AND' ? results.every(Boolean) : results.some(Boolean);
  };
  const hits = matching.filter((d) => passes(d, new Set()));
  const counts: Record<string, Record<string, number>> = {};
  for (const f of FACETS) {
    const ignore: Set<string> | '*' =
      facetType === 'OR' && (ITEM_OP[f] === 'OR' || !byField.has(f))
        ? '*'
        : ITEM_OP[f] === 'OR'
          ? new Set([f])
          : new Set();
    counts[f] = {};
    for (const d of matching.filter((x) => passes(x, ignore)))
      for (const v of valuesOf(d, f)) counts[f]![v] = (counts[f]![v] ?? 0) + 1;
  }
  return { hits, counts };
}

async function matchingDocs(q: string): Promise<Doc[]> {
  const r = await search(vela, `q=${encodeURIComponent(q)}&_setlocale=en_US&rows=1000&fl=id`);
  const ids = new Set(r.body.results.document.map((d: any) => d.fields.id));
  t_assertCount(r.body.queryContext.count, ids.size);
  return docs.filter((d) => ids.has(d.id));
}
function t_assertCount(count: number, size: number) {
  if (count !== size) throw new Error(`count ${count} but ${size} documents came back`);
}

test('facet counts and totals match a brute-force count over the stored documents', async (t) => {
  const r = rng(42);
  const pickDoc = () => docs[Math.floor(r() * docs.length)]!;
  let checked = 0;
  for (const q of ['*', 'editor', 'browser library', 'python', 'package']) {
    const matching = await matchingDocs(q);
    for (let round = 0; round < 6; round++) {
      const filters: Filters = [];
      const n = Math.floor(r() * 3) + 1;
      for (let i = 0; i < n; i++) {
        const f = FACETS[Math.floor(r() * FACETS.length)]!;
        const values = valuesOf(pickDoc(), f);
        if (values.length > 0) filters.push([f, values[Math.floor(r() * values.length)]!]);
      }
      for (const facetType of ['AND', 'OR'] as const) {
        const uniq = [...new Map(filters.map((f) => [f.join(':'), f])).values()];
        const expected = bruteForce(matching, uniq, facetType);
        const query = `q=${encodeURIComponent(q)}&_setlocale=en_US&rows=1000&fl=id&fq.op=${facetType}&fqi.op=&${uniq.map(([f, v]) => `fq[]=${f}:${encodeURIComponent(v)}`).join('&')}`;
        const res = await search(vela, query);
        t.is(res.status, 200, JSON.stringify(res.body));
        t.is(res.body.queryContext.count, expected.hits.length, `${query} total`);
        t.deepEqual(
          res.body.results.document.map((d: any) => d.fields.id).sort(),
          expected.hits.map((d) => d.id).sort(),
          `${query} hits`,
        );
        const groups = [...res.body.widget.facet, ...res.body.widget.secondaryFacet];
        for (const group of groups) {
          for (const item of group.facets) {
            t.is(
              item.count,
              expected.counts[group.name]![item.label] ?? 0,
              `${query} count of ${group.name}:${item.label}`,
            );
          }
        }
        checked += 1;
      }
    }
  }
  t.true(checked >= 60);
});

test("the response has the spec's sections, in order, with path-only links", async (t) => {
  const r = await search(vela, 'q=editor&_setlocale=en_US&rows=5');
  t.deepEqual(Object.keys(r.body), ['pagination', 'queryContext', 'results', 'widget']);
  const ctx = r.body.queryContext;
  t.deepEqual(
    Object.keys(ctx).sort(),
    [...(searchResponseSchema.properties!.queryContext!.required as string[])].sort(),
    'the members its schema requires',
  );
  t.like(ctx, {
    index: 'Sample',
    limit: 5,
    offset: 0,
    page: 1,
    pageStart: 1,
    pageEnd: 5,
    facetType: 'AND',
    facetItemType: 'AND',
    query: { queryString: 'editor', sort: 'relevance', locale: 'en_US' },
  });
  t.is(ctx.pageCount, Math.ceil(ctx.count / 5));
  const doc = r.body.results.document[0];
  t.deepEqual(Object.keys(doc), ['source', 'elevate', 'fields', 'metadata']);
  t.regex(doc.source, /^https:\/\/packages\.example\//);
  t.false(doc.elevate);
  const allLinks = JSON.stringify(r.body).match(/"(href|link|cleanUpLink|cleanUpFacets)":"[^"]*"/g)!;
  t.true(allLinks.length > 10);
  for (const l of allLinks) t.regex(l, /":"\/api\/sn\/Sample\/search\?/);
});

test('matched terms are highlighted with the site markers in hl fields', async (t) => {
  const r = await search(vela, 'q=editor&_setlocale=en_US&rows=50');
  const withTitleMatch = r.body.results.document.filter((d: any) =>
    /editor/i.test(d.fields.title.replace(/<\/?mark>/g, '')),
  );
  t.true(withTitleMatch.length > 0);
  for (const d of withTitleMatch) t.regex(d.fields.title, /<mark>editor<\/mark>/i);
  t.false(
    r.body.results.document.some((d: any) => String(d.fields.url).includes('<mark>')),
    'fields without hl are left alone',
  );
});

test('document metadata lists facet values as {name, values: [{label, link}]}, each link adding that filter', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&p=2&rows=3');
  const doc = r.body.results.document[0];
  const stored = docs.find((d) => d.id === doc.fields.id)!;
  const section = doc.metadata.find((m: any) => m.name === 'section');
  t.deepEqual(section, {
    name: 'section',
    values: [
      {
        label: stored.section,
        link: `/api/sn/Sample/search?q=*&_setlocale=en_US&p=1&rows=3&fq[]=section:${stored.section}`,
      },
    ],
  });
  const tags = doc.metadata.find((m: any) => m.name === 'tags');
  t.deepEqual(tags?.values.map((v: any) => v.label) ?? [], stored.tags);
});

test('each metadata link finds its document: a single-valued facet given several values links the first (the one indexed), repeats once, empty values none', async (t) => {
  const own = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => own.stop());
  await createSite(own);
  await json(own, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        siteNames: ['Sample'],
        attributes: { id: 'm', title: 'multi', section: ['web', 'net'], tags: ['x', 'x', 'y'] },
      },
    ],
  });
  await json(own, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        siteNames: ['Sample'],
        attributes: { id: 'e', title: 'empty', section: '', arch: '  ', tags: ['', 'z'] },
      },
    ],
  });
  const empty = await search(own, 'q=empty&_setlocale=en_US');
  t.deepEqual(
    empty.body.results.document[0].metadata.map((m: any) => [m.name, m.values.map((v: any) => v.label)]),
    [
      ['arch', ['  ']],
      ['tags', ['z']],
    ],
    'an empty value is no value',
  );
  t.deepEqual(
    empty.body.widget.facet.map((g: any) => [g.name, g.facets.map((f: any) => f.label)]),
    [
      ['arch', ['  ']],
      ['tags', ['z']],
    ],
  );
  for (const link of JSON.stringify(empty.body).match(/\/api\/sn\/Sample\/search\?[^"]*/g)!)
    t.is((await own.fetch('search', link)).status, 200, link);
  const r = await search(own, 'q=multi&_setlocale=en_US');
  const metadata = r.body.results.document[0].metadata;
  t.deepEqual(
    metadata.map((m: any) => [m.name, m.values.map((v: any) => v.label)]),
    [
      ['section', ['web']],
      ['tags', ['x', 'y']],
    ],
  );
  for (const { values } of metadata) {
    for (const { link } of values)
      t.is(((await own.fetch('search', link).then((res) => res.json())) as any).queryContext.count, 1, link);
  }
});

test("an AND facet that is filtered is hidden and listed in facetToRemove; choosing a value replaces the field's value", async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&p=3&fq[]=section:editors');
  const names = r.body.widget.facet.map((g: any) => g.name);
  t.false(names.includes('section'));
  t.deepEqual(r.body.widget.selectedFilterQueries, ['section:editors']);
  t.deepEqual(r.body.widget.facetToRemove.facets, [
    {
      count: 0,
      link: '/api/sn/Sample/search?q=*&_setlocale=en_US&p=1',
      label: 'editors',
      filterQuery: 'section:editors',
      selected: true,
    },
  ]);
  t.is(r.body.widget.cleanUpFacets, '/api/sn/Sample/search?q=*&_setlocale=en_US&p=3');
  const all = await search(vela, 'q=*&_setlocale=en_US&fq[]=arch:all');
  const section = all.body.widget.facet.find((g: any) => g.name === 'section');
  const item = section.facets[0];
  t.is(item.link, `/api/sn/Sample/search?q=*&_setlocale=en_US&fq[]=arch:all&fq[]=section:${item.label}`);
  const replaced = await search(vela, 'q=*&_setlocale=en_US&fq[]=arch:all&fq[]=section:web');
  t.is(
    replaced.body.widget.facet.find((g: any) => g.name === 'arch'),
    undefined,
  );
});

test('an OR facet stays visible when filtered: multi-select counts, selected items toggle off, others add', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&fq[]=tags:use::editing');
  const tags = r.body.widget.facet.find((g: any) => g.name === 'tags');
  t.is(tags.facetItemType, 'OR');
  const selected = tags.facets.find((f: any) => f.label === 'use::editing');
  t.true(selected.selected);
  t.is(selected.link, '/api/sn/Sample/search?q=*&_setlocale=en_US');
  const other = tags.facets.find((f: any) => !f.selected);
  t.is(other.link, `/api/sn/Sample/search?q=*&_setlocale=en_US&fq[]=tags:use::editing&fq[]=tags:${other.label}`);
  t.is(other.count, docs.filter((d) => d.tags.includes(other.label)).length, 'counted without the tags filter');
  t.deepEqual(tags.selectedFilterQueries, ['tags:use::editing']);
});

test('the request operators override the site and field operators', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&fq[]=section:web&fq[]=section:net&fqi.op=OR');
  t.is(r.body.queryContext.count, docs.filter((d) => d.section === 'web' || d.section === 'net').length);
  t.is(r.body.queryContext.facetItemType, 'OR');
  const and = await search(vela, 'q=*&_setlocale=en_US&fq[]=section:web&fq[]=section:net');
  t.is(and.body.queryContext.count, 0, 'AND between two values of a single-valued field matches nothing');
});

test('facet links, visibility and counts in each operator combination: AND-AND, AND-OR, OR-AND, OR-OR', async (t) => {
  const count = (pred: (d: Doc) => boolean) => docs.filter(pred).length;
  for (const facetType of ['AND', 'OR'] as const) {
    for (const itemType of ['AND', 'OR'] as const) {
      const base = `/api/sn/Sample/search?q=*&_setlocale=en_US&fq.op=${facetType}&fqi.op=${itemType}`;
      const r = await search(
        vela,
        `q=*&_setlocale=en_US&fq.op=${facetType}&fqi.op=${itemType}&fq[]=section:web&p=2&rows=5`,
      );
      const label = `${facetType}-${itemType}`;
      t.is(
        r.body.queryContext.count,
        count((d) => d.section === 'web'),
        label,
      );
      t.deepEqual([r.body.queryContext.facetType, r.body.queryContext.facetItemType], [facetType, itemType], label);
      const group = (name: string) => r.body.widget.facet.find((g: any) => g.name === name);
      // A filtered facet stays (as toggles) only with OR between its values.
      const section = group('section');
      if (itemType === 'AND') t.is(section, undefined, label);
      else {
        const web = section.facets.find((f: any) => f.label === 'web');
        t.like(web, { selected: true, link: `${base}&p=1&rows=5` }, label);
        const other = section.facets.find((f: any) => !f.selected);
        t.is(other.link, `${base}&fq[]=section:web&p=1&rows=5&fq[]=section:${other.label}`, label);
        t.is(
          other.count,
          count((d) => d.section === other.label),
          `${label}: counted without its own filter`,
        );
      }
      // An unfiltered facet: counted over the results (AND between facets) or over every match (OR).
      const arch = group('arch');
      for (const item of arch.facets) {
        t.is(item.link, `${base}&fq[]=section:web&p=1&rows=5&fq[]=arch:${item.label}`, label);
        t.is(
          item.count,
          count((d) => d.arch === item.label && (facetType === 'OR' || d.section === 'web')),
          `${label} arch:${item.label}`,
        );
      }
      t.deepEqual(
        r.body.widget.facetToRemove.facets.map((f: any) => [f.filterQuery, f.link]),
        [['section:web', `${base}&p=1&rows=5`]],
        label,
      );
      t.is(r.body.widget.cleanUpFacets, `${base}&p=2&rows=5`, label);
      t.is(section?.cleanUpLink ?? r.body.widget.cleanUpFacets, `${base}&p=2&rows=5`, label);
    }
  }
});

test('fqAnd filters narrow the fqOr ones, whose values are alternatives whatever the item operator', async (t) => {
  const r = await search(
    vela,
    'q=*&_setlocale=en_US&fq.and[]=arch:all&fq.or[]=section:web&fq.or[]=section:sound&fq.or[]=tags:use::editing',
  );
  const expected = docs.filter(
    (d) => d.arch === 'all' && (d.section === 'web' || d.section === 'sound' || d.tags.includes('use::editing')),
  );
  t.true(expected.length > 0);
  t.is(r.body.queryContext.count, expected.length);
  // fqAnd values all hold: one section cannot be both.
  const both = await search(vela, 'q=*&_setlocale=en_US&fq.and[]=section:web&fq.and[]=section:sound');
  t.is(both.body.queryContext.count, 0);
  // One field in both parts: section web, and sound or web.
  const split = await search(
    vela,
    'q=*&_setlocale=en_US&fq.and[]=section:web&fq.or[]=section:sound&fq.or[]=section:web',
  );
  t.is(split.body.queryContext.count, docs.filter((d) => d.section === 'web').length);
});

test('fq.and[] and fq.or[] filters show in the widget like fq[] and are removed by its links', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&fq.and[]=section:web&fq.or[]=arch:all');
  t.deepEqual(r.body.widget.selectedFilterQueries, ['section:web', 'arch:all']);
  t.deepEqual(
    r.body.widget.facetToRemove.facets.map((f: any) => [f.filterQuery, f.link]),
    [
      ['section:web', '/api/sn/Sample/search?q=*&_setlocale=en_US&fq.or[]=arch:all'],
      ['arch:all', '/api/sn/Sample/search?q=*&_setlocale=en_US&fq.and[]=section:web'],
    ],
  );
  t.is(r.body.widget.cleanUpFacets, '/api/sn/Sample/search?q=*&_setlocale=en_US');
});

test('numeric and date ranges filter with field:[from TO to]', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&fq[]=size:[100 TO 999]');
  t.is(r.body.queryContext.count, docs.filter((d) => d.size >= 100 && d.size <= 999).length);
  const dates = await search(vela, `q=*&_setlocale=en_US&fq[]=publication_date:[2024-02-01T00:00:00Z TO *]`);
  t.is(dates.body.queryContext.count, docs.filter((d) => d.publication_date >= '2024-02-01').length);
  const dayOnly = await search(vela, `q=*&_setlocale=en_US&fq[]=publication_date:[2024-02-01 TO 2024-02-10]`);
  t.is(
    dayOnly.body.queryContext.count,
    docs.filter((d) => d.publication_date >= '2024-02-01' && d.publication_date < '2024-02-11').length,
    'a day-only bound covers that whole day',
  );
});

test('sorting: newest, oldest and field:asc|desc', async (t) => {
  const newest = await search(vela, 'q=*&_setlocale=en_US&sort=newest&rows=3&fl=id');
  t.deepEqual(
    newest.body.results.document.map((d: any) => d.fields.id),
    ['doc-0299', 'doc-0298', 'doc-0297'],
  );
  const oldest = await search(vela, 'q=*&_setlocale=en_US&sort=oldest&rows=2&fl=id');
  t.deepEqual(
    oldest.body.results.document.map((d: any) => d.fields.id),
    ['doc-0000', 'doc-0001'],
  );
  const bySize = await search(vela, 'q=*&_setlocale=en_US&sort=size:desc&rows=5&fl=size');
  const sizes = bySize.body.results.document.map((d: any) => d.fields.size);
  t.deepEqual(sizes, [...docs.map((d) => d.size)].sort((a, b) => b - a).slice(0, 5));
});

test('fl restricts the returned fields', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&rows=1&fl=id,section');
  t.deepEqual(Object.keys(r.body.results.document[0].fields).sort(), ['id', 'section']);
});

test('group: each group with its count, documents and pagination', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&group=section&rows=2');
  t.deepEqual(Object.keys(r.body), ['queryContext', 'widget', 'groups']);
  const counts = Object.fromEntries(r.body.groups.map((g: any) => [g.name, g.count]));
  for (const [section, count] of Object.entries(counts)) t.is(count, docs.filter((d) => d.section === section).length);
  const group = r.body.groups[0];
  t.is(group.results.document.length, 2);
  t.true(group.results.document.every((d: any) => d.fields.section === group.name));
  t.is(
    group.pagination.find((p: any) => p.type === 'NEXT').href,
    `/api/sn/Sample/search?q=*&_setlocale=en_US&rows=2&fq[]=section:${group.name}&p=2`,
  );
});

test('locale links replace _setlocale; the locales endpoint lists every locale', async (t) => {
  const r = await search(vela, 'q=x&_setlocale=en_US&p=2');
  t.deepEqual(r.body.widget.locales, [
    { locale: 'en_US', link: '/api/sn/Sample/search?q=x&_setlocale=en_US&p=2' },
    { locale: 'pt_BR', link: '/api/sn/Sample/search?q=x&_setlocale=pt_BR&p=2' },
  ]);
  const locales = await json(vela, 'GET', '/api/sn/Sample/search/locales');
  t.deepEqual(locales.body, [
    { locale: 'en_US', link: '/api/sn/Sample/search?q=*&_setlocale=en_US' },
    { locale: 'pt_BR', link: '/api/sn/Sample/search?q=*&_setlocale=pt_BR' },
  ]);
  const followed = await json(vela, 'GET', locales.body[0].link, undefined, { authorization: '' });
  t.is(followed.body.queryContext.count, 300, 'a locale link is a valid search');
  const pt = await search(vela, 'q=*&_setlocale=pt-BR');
  t.is(pt.body.queryContext.count, 0, 'documents live per locale');
  t.is(pt.body.queryContext.query.locale, 'pt_BR', 'en-US style codes are accepted');
});

test('POST search: body members override the query string, and links carry the effective search', async (t) => {
  const r = await json(
    vela,
    'POST',
    '/api/sn/Sample/search?q=ignored&_setlocale=en_US',
    { query: 'editor', rows: 2, fq: ['arch:all'], userId: 'u1' },
    { authorization: '' },
  );
  t.is(r.status, 200);
  t.is(r.body.queryContext.query.queryString, 'editor');
  t.is(r.body.queryContext.limit, 2);
  t.deepEqual(r.body.widget.selectedFilterQueries, ['arch:all']);
  const next = r.body.pagination.find((p: any) => p.type === 'NEXT');
  const withFields = await json(
    vela,
    'POST',
    '/api/sn/Sample/search',
    { query: '*', locale: 'en_US', rows: 1, fieldList: ['id'] },
    { authorization: '' },
  );
  t.regex(
    withFields.body.pagination.find((p: any) => p.type === 'NEXT').href,
    /&fl=id/,
    'the field list is kept in links',
  );
  const followed = await search(vela, next.href.slice(next.href.indexOf('?') + 1));
  t.is(followed.body.queryContext.page, 2);
  t.is(followed.body.queryContext.count, r.body.queryContext.count);
});

test('bad input: 404 for an unknown site or locale, 400 naming the parameter otherwise', async (t) => {
  const cases: Array<[string, number, string, RegExp]> = [
    ['/api/sn/Nope/search?q=x&_setlocale=en_US', 404, 'site_not_found', /no site named or with id "Nope"/],
    [
      '/api/sn/Sample/search?q=x&_setlocale=fr_FR',
      404,
      'locale_not_found',
      /has no locale "fr_FR" \(it has: en_US, pt_BR\)/,
    ],
    ['/api/sn/Sample/search?_setlocale=en_US', 400, 'missing_parameter', /^q is required/],
    ['/api/sn/Sample/search?q=x', 400, 'missing_parameter', /^_setlocale is required/],
    [
      '/api/sn/Sample/search?q=x&_setlocale=en_US&fq[]=nocolon',
      400,
      'invalid_parameter',
      /^fq\[\] must be field:value/,
    ],
    ['/api/sn/Sample/search?q=x&_setlocale=en_US&fq[]=title:x', 400, 'invalid_parameter', /not a facet/],
    ['/api/sn/Sample/search?q=x&_setlocale=en_US&rows=ten', 400, 'invalid_parameter', /^rows must be a whole number/],
    ['/api/sn/Sample/search?q=x&_setlocale=en_US&p=x', 400, 'invalid_parameter', /^p must be/],
    [
      '/api/sn/Sample/search?q=x&_setlocale=en_US&p=99999999999999999999',
      400,
      'invalid_parameter',
      /^p must be a whole number from 1 to 2147483647/,
    ],
    [
      '/api/sn/Sample/search?q=%00&_setlocale=en_US',
      400,
      'invalid_parameter',
      /^q must not contain control characters, found U\+0000/,
    ],
    [
      '/api/sn/Sample/search?q=x&_setlocale=en_US&fq.op=XOR',
      400,
      'invalid_parameter',
      /^fq\.op must be AND, OR, NONE or DEFAULT/,
    ],
    [
      '/api/sn/Sample/search?q=x&_setlocale=en_US&group=title',
      400,
      'invalid_parameter',
      /^group must name a facet field/,
    ],
  ];
  for (const [path, status, error, message] of cases) {
    const r = await json(vela, 'GET', path, undefined, { authorization: '' });
    t.is(r.status, status, path);
    t.is(r.body.error, error, path);
    t.regex(r.body.message, message, path);
  }
});

test('rows above the maximum is capped at 1000; a page past the end is empty with valid pagination', async (t) => {
  const capped = await search(vela, 'q=*&_setlocale=en_US&rows=5000&fl=id');
  t.is(capped.body.queryContext.limit, 1000);
  const beyond = await search(vela, 'q=*&_setlocale=en_US&rows=100&p=9');
  t.is(beyond.status, 200);
  t.deepEqual(beyond.body.results.document, []);
  t.is(beyond.body.queryContext.count, 300);
  t.deepEqual(
    beyond.body.pagination.map((p: any) => `${p.type}:${p.page}`),
    ['FIRST:1', 'LAST:3'],
  );
});

test('targeting rules let through documents with one of the rule values or without the attribute', async (t) => {
  const r = await search(vela, 'q=*&_setlocale=en_US&rows=1&tr[]=tags:use::editing&tr[]=tags:interface::x11');
  t.is(
    r.body.queryContext.count,
    docs.filter((d) => d.tags.length === 0 || d.tags.includes('use::editing') || d.tags.includes('interface::x11'))
      .length,
  );
  const post = await json(
    vela,
    'POST',
    '/api/sn/Sample/search?q=*&_setlocale=en_US',
    { targetingRules: ['tags:use::editing', 'section:web'] },
    { authorization: '' },
  );
  t.is(
    post.body.queryContext.count,
    docs.filter((d) => (d.tags.length === 0 || d.tags.includes('use::editing')) && d.section === 'web').length,
  );
});

test('more filtered fields than a search takes is a 400 naming the limit, not a crash', async (t) => {
  const fields = [{ name: 'id' }, ...Array.from({ length: 33 }, (_, i) => ({ name: `f${i}`, facet: true }))];
  await json(vela, 'POST', '/api/sn', { name: 'Wide', fields });
  const filters = Array.from({ length: 33 }, (_, i) => `fq[]=f${i}:x`).join('&');
  const r = await json(vela, 'GET', `/api/sn/Wide/search?q=*&_setlocale=en_US&${filters}`, undefined, {
    authorization: '',
  });
  t.is(r.status, 400);
  t.regex(r.body.message, /names 33 filtered fields; a search takes at most 31/);
});

test('a facet that shows all items lists values without hits too', async (t) => {
  await json(vela, 'POST', '/api/sn', {
    name: 'ShowAll',
    fields: [
      { name: 'id' },
      { name: 'title', type: 'TEXT' },
      { name: 'type', facet: true, showAllFacetItems: true },
      { name: 'kind', facet: true },
    ],
  });
  await importDocs(
    vela,
    [
      { id: '1', title: 'docker guide', type: 'Guide', kind: 'a' },
      { id: '2', title: 'kubernetes reference', type: 'Reference', kind: 'b' },
    ],
    'ShowAll',
  );
  const r = await search(vela, 'q=docker&_setlocale=en_US', 'ShowAll');
  const facet = (name: string) =>
    r.body.widget.facet.find((g: any) => g.name === name).facets.map((f: any) => [f.label, f.count]);
  t.deepEqual(facet('type'), [
    ['Guide', 1],
    ['Reference', 0],
  ]);
  t.deepEqual(facet('kind'), [['a', 1]]);
});

test('a range on a number field that is also a facet filters by value', async (t) => {
  await json(vela, 'POST', '/api/sn', {
    name: 'Views',
    fields: [{ name: 'id' }, { name: 'views', type: 'INT', facet: true }],
  });
  await importDocs(
    vela,
    [5, 50, 500, 5000].map((views, i) => ({ id: String(i), views })),
    'Views',
  );
  const r = await search(vela, 'q=*&_setlocale=en_US&fq[]=views:[10 TO 1000]', 'Views');
  t.is(r.status, 200);
  t.is(r.body.queryContext.count, 2);
  const exact = await search(vela, 'q=*&_setlocale=en_US&fq[]=views:500', 'Views');
  t.is(exact.body.queryContext.count, 1);
});

test('a query that finds nothing is retried with its last word as a prefix; wildcardAlways does that always', async (t) => {
  await createSite(vela, 'Retry');
  await importDocs(vela, docs, 'Retry');
  const retry = (q: string) => search(vela, `q=${q}&_setlocale=en_US&rows=300`, 'Retry');
  const prefix = await retry('edi');
  const searchable = (d: Doc) => `${d.title} ${d.text} ${d.section} ${d.arch} ${d.tags.join(' ')}`;
  t.is(prefix.body.queryContext.count, docs.filter((d) => /(^|[^\p{L}\p{N}])edi/iu.test(searchable(d))).length);
  t.regex(prefix.body.results.document[0].fields.title, /<mark>edi\w*<\/mark>/i);
  const exact = await retry('editor');
  t.is(
    exact.body.queryContext.count,
    docs.filter((d) => /\beditor\b/i.test(searchable(d))).length,
    'a query with hits stays exact',
  );
  await json(vela, 'POST', '/api/sn', {
    name: 'Typeahead',
    wildcardAlways: true,
    fields: [{ name: 'id' }, { name: 'title', type: 'TEXT', hl: true }],
  });
  await importDocs(
    vela,
    ['editor', 'editors', 'editing'].map((title, i) => ({ id: String(i), title })),
    'Typeahead',
  );
  const always = await search(vela, 'q=editor&_setlocale=en_US', 'Typeahead');
  t.is(always.body.queryContext.count, 2);
});
