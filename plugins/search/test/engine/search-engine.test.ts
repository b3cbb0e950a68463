import test, { type ExecutionContext } from 'ava';
import { memoryEngineFactory } from '../../engine/memory-engine.js';
import type {
  EngineQuery,
  EngineResult,
  FacetRequest,
  FieldFilter,
  IndexableDocument,
  SearchEngine,
  SearchEngineFactory,
} from '../../engine/search-engine.js';
import { engineQuery as query } from './engine-query.js';
import { type EngineVariant, engineVariants } from './engine-variants.js';
import { COLORS, ReferenceSearch, randomDocument, seededRandom, TAGS, WORDS } from './reference-search.js';

const SCHEMA = { facetFields: ['color', 'tags'], numberFields: ['size'], stringFields: ['title'] };

interface Values {
  color?: string;
  tags?: string[];
  size?: number | null;
  title?: string | null;
}

function doc(id: string, text: string, values: Values = {}): IndexableDocument {
  return {
    id,
    text,
    facets: { color: values.color === undefined ? [] : [values.color], tags: values.tags ?? [] },
    numbers: { size: values.size ?? null },
    strings: { title: values.title ?? null },
  };
}

function facet(field: string, options: Partial<FacetRequest> = {}): FacetRequest {
  return { field, ignoreFilters: [], limit: 0, sort: 'count', ...options };
}

function is(field: string, values: string[], itemOp: 'AND' | 'OR' = 'OR'): FieldFilter {
  return { field, values, itemOp };
}

function between(field: string, ...ranges: Array<[number | null, number | null]>): FieldFilter {
  return { field, values: [], ranges, itemOp: 'OR' };
}

const ids = (result: EngineResult) => result.hits.map((hit) => hit.id);
/** Sets and maps as sorted arrays: ava compares their iteration order, which is not part of the contract. */
const sorted = <T>(items: Iterable<T>) => [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
const sortedIds = (result: EngineResult) => ids(result).sort();

async function makeEngine(factory: SearchEngineFactory, documents: IndexableDocument[]): Promise<SearchEngine> {
  const engine = factory.create(SCHEMA);
  await engine.upsert(documents);
  return engine;
}

/** A shop of six documents used by most tests. */
function shopOf(factory: SearchEngineFactory): Promise<SearchEngine> {
  return makeEngine(factory, [
    doc('1', 'Red apple pie', { color: 'red', tags: ['food', 'sweet'], size: 3, title: 'Apple pie' }),
    doc('2', 'Green apple', { color: 'green', tags: ['food'], size: 1, title: 'Green apple' }),
    doc('3', 'Red sports car', { color: 'red', tags: ['fast'], size: 4000, title: 'Car' }),
    doc('4', 'Blue apple juice', { color: 'blue', tags: ['food', 'drink'], size: null, title: null }),
    doc('5', 'Cherry pie with apple crumble', { color: 'red', tags: ['food', 'sweet'], size: 5, title: 'Cherry pie' }),
    doc('6', 'Bicycle', { tags: [], size: 12, title: 'bicycle' }),
  ]);
}

function randomQuery(random: () => number): EngineQuery {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const some = <T>(items: T[]) => items.filter(() => random() < 0.3);
  const filterOn = (): FieldFilter => {
    const kind = Math.floor(random() * 3);
    const itemOp = random() < 0.5 ? 'AND' : 'OR';
    if (kind === 0) return { field: 'color', values: some(COLORS).concat(pick(COLORS)), itemOp };
    if (kind === 1) return { field: 'tags', values: some(TAGS).concat(pick(TAGS)), itemOp };
    const low = Math.floor(random() * 80);
    return {
      field: 'size',
      values: [],
      ranges: [[random() < 0.2 ? null : low, random() < 0.2 ? null : low + Math.floor(random() * 40)]],
      itemOp,
    };
  };
  const texts = [
    null,
    '*',
    pick(WORDS),
    `${pick(WORDS)} ${pick(WORDS)}`,
    `${pick(WORDS)}, ${pick(WORDS)} ${pick(WORDS)}`,
    'nothingmatches',
  ];
  const ignore = (): string[] | '*' => (random() < 0.15 ? '*' : some(['color', 'tags', 'size']));
  return query({
    text: pick(texts),
    filter: {
      and: Array.from({ length: Math.floor(random() * 3) }, filterOn),
      or: Array.from({ length: random() < 0.7 ? 0 : 1 + Math.floor(random() * 2) }, filterOn),
    },
    facets: [facet('color', { ignoreFilters: ignore() }), facet('tags', { ignoreFilters: ignore() })],
    limit: 1000,
  });
}

/** The engine test cases, run against every SearchEngine implementation (engine-variants.ts). */
function registerCases(variant: EngineVariant): void {
  const it = (name: string, run: (t: ExecutionContext) => Promise<void>) =>
    variant.test(`${variant.name}: ${name}`, run);
  const engineWith = (...documents: IndexableDocument[]) => makeEngine(variant.factory(), documents);
  const shop = () => shopOf(variant.factory());

  it('a document matches only when it contains every query term', async (t) => {
    const engine = await shop();
    t.deepEqual(sortedIds(await engine.query(query({ text: 'apple pie' }))), ['1', '5']);
    t.deepEqual(sortedIds(await engine.query(query({ text: 'apple' }))), ['1', '2', '4', '5']);
    t.deepEqual(ids(await engine.query(query({ text: 'apple rocket' }))), []);
    t.is((await engine.query(query({ text: 'apple rocket' }))).total, 0);
  });

  it("'*', '' and null text match every live document", async (t) => {
    const engine = await shop();
    for (const text of ['*', '', '  ', null])
      t.is((await engine.query(query({ text }))).total, 6, `text ${JSON.stringify(text)}`);
  });

  it('terms match case-insensitively, split on anything but letters and digits, Unicode included', async (t) => {
    const engine = await engineWith(
      doc('a', 'Café-Crème à PARIS, 2024!'),
      doc('b', 'ÉCOLE élève'),
      doc('c', 'naïve/über x86_64'),
    );
    t.deepEqual(ids(await engine.query(query({ text: 'café crème' }))), ['a']);
    t.deepEqual(ids(await engine.query(query({ text: 'paris 2024' }))), ['a']);
    t.deepEqual(ids(await engine.query(query({ text: 'école ÉLÈVE' }))), ['b']);
    t.deepEqual(ids(await engine.query(query({ text: 'NAÏVE Über' }))), ['c']);
    t.deepEqual(ids(await engine.query(query({ text: 'x86 64' }))), ['c']);
    t.deepEqual(ids(await engine.query(query({ text: 'caf' }))), [], 'no prefix matching by default');
  });

  it('the last query term of 3+ characters matches as a prefix when the option is on', async (t) => {
    const engine = variant.factory({ prefixLastTerm: true }).create(SCHEMA);
    await engine.upsert([
      doc('a', 'searching the web'),
      doc('b', 'search engine'),
      doc('c', 'seal of approval'),
      doc('d', 'web search'),
    ]);
    t.deepEqual(sortedIds(await engine.query(query({ text: 'sear' }))), ['a', 'b', 'd']);
    t.deepEqual(sortedIds(await engine.query(query({ text: 'web sear' }))), ['a', 'd']);
    t.deepEqual(sortedIds(await engine.query(query({ text: 'sear web' }))), [], 'only the last term is a prefix');
    t.deepEqual(sortedIds(await engine.query(query({ text: 'se' }))), [], 'two characters are too short for a prefix');
    t.deepEqual(
      sortedIds(await engine.query(query({ text: 'sea sear' }))),
      [],
      'an earlier term still matches exactly',
    );
  });

  it('values of one field are ORed or ANDed by itemOp', async (t) => {
    const engine = await shop();
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [is('color', ['green', 'blue'])], or: [] } }))), [
      '2',
      '4',
    ]);
    t.deepEqual(
      sortedIds(await engine.query(query({ filter: { and: [is('tags', ['food', 'sweet'], 'AND')], or: [] } }))),
      ['1', '5'],
    );
    t.deepEqual(
      sortedIds(await engine.query(query({ filter: { and: [is('tags', ['food', 'sweet'], 'OR')], or: [] } }))),
      ['1', '2', '4', '5'],
    );
    t.deepEqual(
      ids(await engine.query(query({ filter: { and: [is('color', ['red', 'green'], 'AND')], or: [] } }))),
      [],
      'a single value cannot be both',
    );
    t.deepEqual(
      ids(await engine.query(query({ filter: { and: [is('tags', ['food', 'nope'], 'AND')], or: [] } }))),
      [],
      'an unknown value is carried by nobody',
    );
  });

  it('filters on different fields combine by the and/or rule of the FilterSpec', async (t) => {
    const engine = await shop();
    const red = is('color', ['red']);
    const sweet = is('tags', ['sweet']);
    const drink = is('tags', ['drink']);
    // Every `and` filter must pass.
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [red, sweet], or: [] } }))), ['1', '5']);
    // Some `or` filter must pass.
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [], or: [red, drink] } }))), ['1', '3', '4', '5']);
    // Both parts: every `and` passes AND some `or` passes.
    const food = is('tags', ['food']);
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [food], or: [red, drink] } }))), ['1', '4', '5']);
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [red, sweet], or: [drink] } }))), []);
    // A filter with no values and no ranges constrains nothing.
    t.is((await engine.query(query({ filter: { and: [is('color', [])], or: [is('tags', [])] } }))).total, 6);
    // Filters narrow the text hits.
    t.deepEqual(sortedIds(await engine.query(query({ text: 'apple', filter: { and: [red], or: [] } }))), ['1', '5']);
  });

  it('a multi-valued facet counts each of its values once per document', async (t) => {
    const engine = await engineWith(
      doc('a', 'x', { tags: ['p', 'q', 'p'] }),
      doc('b', 'x', { tags: ['q', 'r'] }),
      doc('c', 'x', { tags: ['s'] }),
    );
    const result = await engine.query(query({ text: 'x', facets: [facet('tags')] }));
    t.deepEqual(result.facets.tags, [
      ['q', 2],
      ['p', 1],
      ['r', 1],
      ['s', 1],
    ]);
    t.deepEqual(sortedIds(await engine.query(query({ filter: { and: [is('tags', ['q', 'p'], 'AND')], or: [] } }))), [
      'a',
    ]);
  });

  it('number ranges are inclusive, open at a null end, and never match a document without a value', async (t) => {
    const engine = await shop();
    const sizes = async (filter: FieldFilter) =>
      sortedIds(await engine.query(query({ filter: { and: [filter], or: [] } })));
    t.deepEqual(await sizes(between('size', [3, 12])), ['1', '5', '6']);
    t.deepEqual(await sizes(between('size', [null, 3])), ['1', '2']);
    t.deepEqual(await sizes(between('size', [100, null])), ['3']);
    t.deepEqual(
      await sizes(between('size', [null, null])),
      ['1', '2', '3', '5', '6'],
      'an open range still needs a value',
    );
    t.deepEqual(await sizes(between('size', [0, 1], [4000, 4000])), ['2', '3'], 'several ranges are ORed');
    t.deepEqual(
      await sizes({
        field: 'size',
        values: [],
        ranges: [
          [0, 10],
          [5, 100],
        ],
        itemOp: 'AND',
      }),
      ['5'],
      'or ANDed',
    );
    t.deepEqual(
      await sizes({ field: 'size', values: ['12', 'twelve'], itemOp: 'OR' }),
      ['6'],
      'exact values of a number field',
    );
  });

  it('facet counts equal a brute-force count for many random queries and filters', async (t) => {
    const random = seededRandom(7);
    const engine = variant.factory().create(SCHEMA);
    const reference = new ReferenceSearch();
    const documents = Array.from({ length: 600 }, (_, i) => randomDocument(random, `d${i}`));
    await engine.upsert(documents);
    reference.upsert(documents);
    // Churn: replace and remove some documents so freed ordinals get reused.
    const replaced = Array.from({ length: 150 }, (_, i) => randomDocument(random, `d${i * 3}`));
    await engine.upsert(replaced);
    reference.upsert(replaced);
    const removed = Array.from({ length: 100 }, (_, i) => `d${i * 5 + 1}`);
    await engine.remove(removed);
    reference.remove(removed);
    const added = Array.from({ length: 80 }, (_, i) => randomDocument(random, `n${i}`));
    await engine.upsert(added);
    reference.upsert(added);

    for (let round = 0; round < 400; round++) {
      const q = randomQuery(random);
      const got = await engine.query(q);
      const want = reference.query(q);
      const label = JSON.stringify(q);
      t.is(got.total, want.total, label);
      t.deepEqual(sorted(ids(got)), sorted(want.ids), label);
      for (const request of q.facets) {
        t.deepEqual(
          sorted(got.facets[request.field]!),
          sorted(want.facets[request.field]!),
          `${label} facet ${request.field}`,
        );
      }
    }
  });

  it('every hit of a random query is a reference hit and pages cover the hits in order without gaps', async (t) => {
    const random = seededRandom(11);
    const engine = variant.factory().create(SCHEMA);
    const reference = new ReferenceSearch();
    const documents = Array.from({ length: 400 }, (_, i) => randomDocument(random, `d${i}`));
    await engine.upsert(documents);
    reference.upsert(documents);
    const sorts: EngineQuery['sort'][] = [
      { by: 'relevance' },
      { by: 'number', field: 'size', direction: 'asc' },
      { by: 'number', field: 'size', direction: 'desc' },
      { by: 'string', field: 'title', direction: 'asc' },
      { by: 'string', field: 'title', direction: 'desc' },
    ];
    for (let round = 0; round < 60; round++) {
      const q = { ...randomQuery(random), sort: sorts[round % sorts.length]! };
      const all = await engine.query({ ...q, offset: 0, limit: 10_000 });
      t.deepEqual(sorted(ids(all)), sorted(reference.query(q).ids));
      // Small pages come from the bounded heap, the full list from a sort: they must agree.
      const pageSize = 1 + Math.floor(random() * 7);
      const paged: string[] = [];
      for (let offset = 0; offset < all.total; offset += pageSize)
        paged.push(...ids(await engine.query({ ...q, offset, limit: pageSize })));
      t.deepEqual(paged, ids(all), JSON.stringify(q.sort));
    }
  });

  it('ignoreFilters on its own field gives multi-select counts, and "*" counts the text hits alone', async (t) => {
    const engine = await shop();
    const filter = { and: [is('color', ['red']), is('tags', ['food'])], or: [] };
    const result = await engine.query(
      query({
        text: 'apple',
        filter,
        facets: [facet('color', { ignoreFilters: ['color'] }), facet('tags', { ignoreFilters: '*' })],
      }),
    );
    t.deepEqual(sortedIds(result), ['1', '5']);
    // color counts: apple hits that pass the tags filter, whatever their color.
    t.deepEqual(result.facets.color, [
      ['red', 2],
      ['blue', 1],
      ['green', 1],
    ]);
    // tags counts: all apple hits, no filter at all.
    t.deepEqual(result.facets.tags, [
      ['food', 4],
      ['sweet', 2],
      ['drink', 1],
    ]);
    // Without ignoreFilters the counts are over the hits.
    const plain = await engine.query(query({ text: 'apple', filter, facets: [facet('color')] }));
    t.deepEqual(plain.facets.color, [['red', 2]]);
  });

  it('included values are reported with their real count, zero included', async (t) => {
    const engine = await shop();
    const result = await engine.query(
      query({
        text: 'apple',
        filter: { and: [is('color', ['green'])], or: [] },
        facets: [
          facet('color', { include: ['green', 'pink', 'red'] }),
          facet('tags', { limit: 1, include: ['drink'] }),
        ],
      }),
    );
    t.deepEqual(result.facets.color, [
      ['green', 1],
      ['pink', 0],
      ['red', 0],
    ]);
    t.deepEqual(result.facets.tags, [
      ['food', 1],
      ['drink', 0],
    ]);
  });

  it('facet values sort by count with ties by value, or by value, and are cut to the limit', async (t) => {
    const engine = await shop();
    const counted = await engine.query(query({ facets: [facet('tags', { limit: 2 })] }));
    t.deepEqual(counted.facets.tags, [
      ['food', 4],
      ['sweet', 2],
    ]);
    const byValue = await engine.query(query({ facets: [facet('tags', { sort: 'index' })] }));
    t.deepEqual(byValue.facets.tags, [
      ['drink', 1],
      ['fast', 1],
      ['food', 4],
      ['sweet', 2],
    ]);
    const ties = await engine.query(query({ facets: [facet('color', { limit: 2 })] }));
    t.deepEqual(ties.facets.color, [
      ['red', 3],
      ['blue', 1],
    ]);
  });

  it('sorting by a number field puts documents without a value last in both directions', async (t) => {
    const engine = await shop();
    const asc = await engine.query(query({ sort: { by: 'number', field: 'size', direction: 'asc' } }));
    t.deepEqual(ids(asc), ['2', '1', '5', '6', '3', '4']);
    const desc = await engine.query(query({ sort: { by: 'number', field: 'size', direction: 'desc' } }));
    t.deepEqual(ids(desc), ['3', '6', '5', '1', '2', '4']);
  });

  it('sorting by a string field puts documents without a value last in both directions', async (t) => {
    const engine = await shop();
    const asc = await engine.query(query({ sort: { by: 'string', field: 'title', direction: 'asc' } }));
    t.deepEqual(ids(asc), ['1', '3', '5', '2', '6', '4'], 'code-unit order: upper case first');
    const desc = await engine.query(query({ sort: { by: 'string', field: 'title', direction: 'desc' } }));
    t.deepEqual(ids(desc), ['6', '2', '5', '3', '1', '4']);
  });

  it("relevance ranks by the engine's rule, ties in indexing order", async (t) => {
    const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
    const engine = await engineWith(
      doc('late', `${filler} rocket`),
      doc('early', `rocket ${filler}`),
      doc('middle', `word rocket ${filler}`),
      doc('early2', 'rocket'),
    );
    const result = await engine.query(query({ text: 'rocket' }));
    const ranks = result.hits.map((hit) => hit.rank);
    if (variant.name === 'memory') {
      // BM25F: the short text first, then the long ones, where "rocket" weighs the same, in indexing order.
      t.deepEqual(ids(result), ['early2', 'late', 'early', 'middle']);
      t.true(ranks[0]! < ranks[1]!);
      t.is(ranks[1], ranks[2]);
      t.true(ranks[2]! <= ranks[3]!);
      return;
    }
    // The PostgreSQL engine's BM25F has no length normalisation: "rocket" once weighs the same in every text.
    t.deepEqual(ids(result), ['late', 'early', 'middle', 'early2']);
    t.is(new Set(ranks).size, 1);
    t.true(ranks[0]! < 0, 'minus the score');
  });

  it('paging beyond the end gives no hits and the right total', async (t) => {
    const engine = await shop();
    const result = await engine.query(query({ text: 'apple', offset: 10, limit: 5, facets: [facet('color')] }));
    t.deepEqual(result.hits, []);
    t.is(result.total, 4);
    t.deepEqual(result.facets.color, [
      ['red', 2],
      ['blue', 1],
      ['green', 1],
    ]);
    t.deepEqual(
      ids(
        await engine.query(
          query({ text: 'apple', offset: 3, limit: 5, sort: { by: 'number', field: 'size', direction: 'asc' } }),
        ),
      ),
      ['4'],
    );
    t.deepEqual((await engine.query(query({ text: 'apple', limit: 0 }))).hits, []);
    await t.throwsAsync(async () => engine.query(query({ offset: -1 })), { message: /offset must be an integer/ });
  });

  it('grouping orders groups by their best hit and pages the hits of each group', async (t) => {
    const engine = await shop();
    const result = await engine.query(
      query({ sort: { by: 'number', field: 'size', direction: 'asc' }, group: 'tags', offset: 0, limit: 2 }),
    );
    t.deepEqual(
      result.groups!.map((group) => [group.value, group.total, group.hits.map((hit) => hit.id)]),
      [
        ['food', 4, ['2', '1']],
        ['sweet', 2, ['1', '5']],
        ['fast', 1, ['3']],
        ['drink', 1, ['4']],
      ],
    );
    const second = await engine.query(
      query({ sort: { by: 'number', field: 'size', direction: 'asc' }, group: 'color', offset: 1, limit: 1 }),
    );
    t.deepEqual(
      second.groups!.map((group) => [group.value, group.total, group.hits.map((hit) => hit.id)]),
      [
        ['green', 1, []],
        ['red', 3, ['5']],
        ['blue', 1, []],
      ],
      'a document without a value joins no group',
    );
  });

  it('grouping returns at most 100 groups', async (t) => {
    const engine = variant.factory().create(SCHEMA);
    await engine.upsert(Array.from({ length: 150 }, (_, i) => doc(`d${i}`, 'x', { color: `c${i}`, size: i })));
    const result = await engine.query(
      query({ sort: { by: 'number', field: 'size', direction: 'desc' }, group: 'color', limit: 1 }),
    );
    t.is(result.groups!.length, 100);
    t.is(result.groups![0]!.value, 'c149');
    t.is(result.total, 150);
  });

  it('upserting an existing id replaces its text and values everywhere', async (t) => {
    const engine = await shop();
    await engine.upsert([
      doc('1', 'Yellow banana bread', { color: 'yellow', tags: ['baked'], size: 7, title: 'Banana' }),
    ]);
    t.is(engine.size, 6);
    t.deepEqual(sortedIds(await engine.query(query({ text: 'apple' }))), ['2', '4', '5']);
    t.deepEqual(ids(await engine.query(query({ text: 'banana' }))), ['1']);
    const counts = (await engine.query(query({ facets: [facet('color'), facet('tags')] }))).facets;
    t.deepEqual(counts.color, [
      ['red', 2],
      ['blue', 1],
      ['green', 1],
      ['yellow', 1],
    ]);
    t.deepEqual(counts.tags, [
      ['food', 3],
      ['baked', 1],
      ['drink', 1],
      ['fast', 1],
      ['sweet', 1],
    ]);
    t.deepEqual(ids(await engine.query(query({ filter: { and: [between('size', [6, 8])], or: [] } }))), ['1']);
    const vocabulary = new Map(await engine.vocabulary());
    t.is(vocabulary.get('apple'), 3);
    t.is(vocabulary.get('banana'), 1);
  });

  it('removed documents leave no trace in matches, counts, vocabulary or size', async (t) => {
    const engine = await shop();
    await engine.remove(['1', '5', 'unknown']);
    t.is(engine.size, 4);
    t.false(await engine.has('1'));
    t.true(await engine.has('2'));
    t.deepEqual(sortedIds(await engine.query(query({ text: 'apple' }))), ['2', '4']);
    t.deepEqual(ids(await engine.query(query({ text: 'pie' }))), []);
    const counts = (await engine.query(query({ facets: [facet('tags'), facet('color')] }))).facets;
    t.deepEqual(counts.tags, [
      ['food', 2],
      ['drink', 1],
      ['fast', 1],
    ]);
    t.deepEqual(counts.color, [
      ['blue', 1],
      ['green', 1],
      ['red', 1],
    ]);
    t.false(new Map(await engine.vocabulary()).has('pie'));
    // A new document takes a freed ordinal and must not inherit anything from the removed one.
    await engine.upsert([doc('7', 'plain', {})]);
    t.deepEqual(ids(await engine.query(query({ text: 'plain' }))), ['7']);
    t.deepEqual((await engine.query(query({ text: 'plain', facets: [facet('tags'), facet('color')] }))).facets, {
      tags: [],
      color: [],
    });
    t.deepEqual(
      ids(await engine.query(query({ text: 'plain', sort: { by: 'number', field: 'size', direction: 'asc' } }))),
      ['7'],
    );
  });

  it('many removals and re-additions keep results exact', async (t) => {
    const random = seededRandom(3);
    const engine = variant.factory().create(SCHEMA);
    const reference = new ReferenceSearch();
    for (let round = 0; round < 4; round++) {
      const documents = Array.from({ length: 1500 }, (_, i) => randomDocument(random, `d${i}`));
      await engine.upsert(documents);
      reference.upsert(documents);
      const gone = Array.from({ length: 1400 }, (_, i) => `d${(i * 7 + round) % 1500}`);
      await engine.remove(gone);
      reference.remove(gone);
    }
    t.is(engine.size, reference.documents.size);
    for (const word of WORDS) {
      const q = query({ text: word, facets: [facet('tags')], limit: 5000 });
      t.deepEqual(sorted(ids(await engine.query(q))), sorted(reference.query(q).ids), word);
      t.deepEqual(sorted((await engine.query(q)).facets.tags!), sorted(reference.query(q).facets.tags!), word);
    }
    const df = new Map(await engine.vocabulary());
    for (const word of WORDS) t.is(df.get(word) ?? 0, reference.textMatches(word).size, word);
  });

  it('vocabulary yields every indexed term once with its document frequency', async (t) => {
    const engine = await engineWith(doc('a', 'one two two'), doc('b', 'two three'), doc('c', 'Three THREE'));
    t.deepEqual(sorted(await engine.vocabulary()), [
      ['one', 1],
      ['three', 2],
      ['two', 2],
    ]);
  });

  it('fields outside the schema are refused with the field named; a filter on one matches nothing', async (t) => {
    const engine = await shop();
    const unknown = await engine.query(query({ filter: { and: [is('shape', ['round'])], or: [] } }));
    t.is(unknown.total, 0, 'no document has a value for a field without a column, as in Solr');
    await t.throwsAsync(async () => engine.query(query({ facets: [facet('shape')] })), {
      message: /facet counts on "shape"/,
    });
    await t.throwsAsync(
      async () => engine.query(query({ sort: { by: 'number', field: 'weight', direction: 'asc' } })),
      { message: /sort by "weight"/ },
    );
    await t.throwsAsync(async () => engine.query(query({ group: 'size' })), { message: /group on "size"/ });
    await t.throwsAsync(async () => engine.query(query({ filter: { and: [between('color', [1, 2])], or: [] } })), {
      message: /ranges need a number field/,
    });
  });

  it('a batch with a document of the wrong shape is refused whole', async (t) => {
    const engine = await shop();
    const bad = { ...doc('9', 'fresh'), facets: { color: 'red' } } as unknown as IndexableDocument;
    await t.throwsAsync(async () => engine.upsert([doc('8', 'fresh'), bad]), {
      message: 'document "9": facets.color must be an array of strings',
    });
    await t.throwsAsync(
      async () => engine.upsert([{ ...doc('9', 'x'), numbers: { size: '3' } } as unknown as IndexableDocument]),
      {
        message: /numbers.size must be a number or null/,
      },
    );
    await t.throwsAsync(async () => engine.upsert([doc('', 'x')]), {
      message: 'document id must be a non-empty string',
    });
    t.false(await engine.has('8'));
    t.is((await engine.query(query({ text: 'fresh' }))).total, 0);
  });

  it('matchMissing also lets through documents without a value for the field', async (t) => {
    const engine = await shop();
    const pass = async (filter: FieldFilter) =>
      sortedIds(await engine.query(query({ filter: { and: [filter], or: [] } })));
    t.deepEqual(await pass({ field: 'size', values: [], ranges: [[0, 4]], itemOp: 'OR', matchMissing: true }), [
      '1',
      '2',
      '4',
    ]);
    t.deepEqual(await pass({ field: 'color', values: ['red'], itemOp: 'OR', matchMissing: true }), [
      '1',
      '3',
      '5',
      '6',
    ]);
    t.deepEqual(await pass({ field: 'title', values: ['Car'], itemOp: 'OR', matchMissing: true }), ['3', '4']);
    t.deepEqual(await pass({ field: 'title', values: ['Car'], itemOp: 'OR' }), ['3'], 'exact values of a string field');
  });

  it('require conditions hold for the hits and every facet count, whatever the and and or parts', async (t) => {
    const engine = await shop();
    const missing = (field: string): FieldFilter => ({ field, values: [], itemOp: 'OR', matchMissing: true });
    // Red documents must be tagged sweet (or carry no tags); the others pass.
    const targeted = {
      any: [
        { all: [{ filter: is('color', ['red']) }, { filter: { ...is('tags', ['sweet']), matchMissing: true } }] },
        { none: [{ filter: is('color', ['red']) }] },
      ],
    };
    const result = await engine.query(
      query({
        filter: { and: [], or: [is('color', ['blue']), is('tags', ['food', 'fast'])], require: [targeted] },
        facets: [facet('color', { ignoreFilters: '*' }), facet('tags', { ignoreFilters: ['tags'] })],
      }),
    );
    t.deepEqual(sortedIds(result), ['1', '2', '4', '5'], 'the OR part found 3, which the condition keeps out');
    t.deepEqual(sorted(result.facets.color!), [
      ['blue', 1],
      ['green', 1],
      ['red', 2],
    ]);
    const lacking = await engine.query(
      query({ filter: { and: [], or: [], require: [{ all: [{ filter: missing('color') }] }] } }),
    );
    t.deepEqual(sortedIds(lacking), ['6'], 'a filter of a condition without values: the documents without the field');
    const none = await engine.query(query({ filter: { and: [], or: [], require: [{ any: [] }] } }));
    t.is(none.total, 0, 'any of no conditions: no document');
    const unknown = await engine.query(query({ filter: { and: [], or: [], require: [{ filter: missing('shape') }] } }));
    t.is(unknown.total, 6, 'no document has a field without a column');
  });

  it('allValues reports every value of the field, counted or not, within the limit', async (t) => {
    const engine = await shop();
    const filter = { and: [is('color', ['green'])], or: [] };
    const byValue = await engine.query(query({ filter, facets: [facet('color', { allValues: true, sort: 'index' })] }));
    t.deepEqual(byValue.facets.color, [
      ['blue', 0],
      ['green', 1],
      ['red', 0],
    ]);
    const byCount = await engine.query(query({ filter, facets: [facet('color', { allValues: true, limit: 2 })] }));
    t.deepEqual(byCount.facets.color, [
      ['green', 1],
      ['blue', 0],
    ]);
  });

  it('More Like This scores by weighted terms, terms weighing more in a document counting more, leaving out the excluded', async (t) => {
    const engine = await shop();
    const hits = await engine.similar(
      [
        ['apple', 1],
        ['pie', 2],
      ],
      ['1'],
      10,
    );
    t.deepEqual(
      hits.map((hit) => hit.id),
      ['5', '2', '4'],
    );
    t.deepEqual(
      hits.map((hit) => hit.rank),
      [0, 1, 2],
    );
    t.deepEqual(await engine.similar([['rocket', 1]], [], 10), []);
    t.deepEqual(await engine.similar([['apple', 1]], [], 0), []);
  });

  it('ranked candidates: only those live ids, by score (ties in the order given), the text not matched', async (t) => {
    const engine = await shop();
    await engine.remove(['2']);
    const ranked = [
      { id: '3', score: 0.2 },
      { id: 'unknown', score: 0.9 },
      { id: '5', score: 0.5 },
      { id: '1', score: 0.5 },
      { id: '3', score: 0.99 },
      { id: '2', score: 0.1 },
    ];
    const result = await engine.query(query({ text: 'bicycle', ranked }));
    t.is(result.total, 3);
    t.deepEqual(ids(result), ['5', '1', '3'], 'an id given twice counts at its first place');
    t.deepEqual(
      result.hits.map((hit) => hit.rank),
      [-0.5, -0.5, -0.2],
    );
    const none = await engine.query(query({ ranked: [], facets: [facet('color')] }));
    t.is(none.total, 0);
    t.deepEqual(none.facets.color, []);
  });

  it('ranked candidates are filtered, counted by facets and paged like any hits', async (t) => {
    const engine = await shop();
    const ranked = ['6', '4', '1', '5', '3', '2'].map((id, i) => ({ id, score: 0.9 - i / 10 }));
    const result = await engine.query(
      query({
        ranked,
        filter: { and: [is('tags', ['food'])], or: [] },
        facets: [facet('color'), facet('tags', { ignoreFilters: ['tags'] })],
        offset: 1,
        limit: 2,
      }),
    );
    t.is(result.total, 4);
    t.deepEqual(ids(result), ['1', '5']);
    t.deepEqual(result.facets.color, [
      ['red', 2],
      ['blue', 1],
      ['green', 1],
    ]);
    t.deepEqual(result.facets.tags, [
      ['food', 4],
      ['sweet', 2],
      ['drink', 1],
      ['fast', 1],
    ]);
  });

  it('ranked candidates sort by a field and group as any hits', async (t) => {
    const engine = await shop();
    const bySize = await engine.query(
      query({
        ranked: [
          { id: '3', score: 3 },
          { id: '6', score: 2 },
          { id: '4', score: 1 },
        ],
        sort: { by: 'number', field: 'size', direction: 'asc' },
      }),
    );
    t.deepEqual(ids(bySize), ['6', '3', '4'], 'a document without the value last');
    const ranked = ['6', '4', '1', '5', '3', '2'].map((id, i) => ({ id, score: 0.9 - i / 10 }));
    const grouped = await engine.query(query({ ranked, group: 'color', limit: 1 }));
    t.deepEqual(
      grouped.groups!.map((group) => [group.value, group.total, group.hits.map((hit) => hit.id)]),
      [
        ['blue', 1, ['4']],
        ['red', 3, ['1']],
        ['green', 1, ['2']],
      ],
    );
  });

  it('the term dictionary has the live terms, their document frequencies and the phrases', async (t) => {
    const engine = await engineWith(
      { ...doc('a', 'apple pie'), phrases: ['apple pie'] },
      { ...doc('b', 'apple juice'), phrases: ['apple juice'] },
      { ...doc('c', 'apple pie again'), phrases: ['apple pie'] },
    );
    await engine.remove(['b']);
    await variant.settle(engine);
    const terms = engine.terms;
    t.is(terms.documents, 2);
    t.is(terms.documentFrequency('apple'), 2);
    t.is(terms.documentFrequency('juice'), 0);
    t.deepEqual(
      terms.sortedTerms().filter((term) => terms.documentFrequency(term) > 0),
      ['again', 'apple', 'pie'],
    );
    t.is(terms.phraseFrequency('apple pie'), 2);
    t.is(terms.phraseFrequency('apple juice'), 0);
    const seen: Array<[string, number]> = [];
    terms.forEachPhrase('apple', (phrase, frequency) => {
      if (frequency > 0) seen.push([phrase, frequency]);
      return true;
    });
    t.deepEqual(seen, [['apple pie', 2]]);
  });
}

for (const variant of engineVariants(test)) registerCases(variant);

test('memory: a snapshot restores an engine that answers every query identically and takes further writes', async (t) => {
  const random = seededRandom(5);
  const engine = memoryEngineFactory.create(SCHEMA);
  await engine.upsert(Array.from({ length: 500 }, (_, i) => randomDocument(random, `d${i}`)));
  await engine.remove(Array.from({ length: 50 }, (_, i) => `d${i * 9}`));
  await engine.upsert([doc('multi', 'alpha', { tags: ['t1', 't2', 't3'], color: 'red' })]);
  const restored = await memoryEngineFactory.restore(await engine.exportSnapshot());
  t.is(restored.size, engine.size);
  t.deepEqual(restored.schema, engine.schema);
  for (let round = 0; round < 150; round++) {
    const q = randomQuery(random);
    const sort = [
      { by: 'relevance' as const },
      { by: 'number' as const, field: 'size', direction: 'desc' as const },
      { by: 'string' as const, field: 'title', direction: 'asc' as const },
    ][round % 3]!;
    const full = { ...q, sort, offset: round % 4, limit: 20, group: round % 5 === 0 ? 'tags' : undefined };
    t.deepEqual(await restored.query(full), await engine.query(full));
  }
  t.deepEqual(sorted(await restored.vocabulary()), sorted(await engine.vocabulary()));
  await restored.upsert([doc('d1', 'brandnew', { color: 'pink' })]);
  await restored.remove(['d2']);
  t.deepEqual(ids(await restored.query(query({ text: 'brandnew' }))), ['d1']);
  t.false(await restored.has('d2'));
  t.is(restored.size, engine.size - 1);
});

test('memory: a corrupt, truncated or foreign snapshot is rejected with a clear error', async (t) => {
  const snapshot = await (await shopOf(memoryEngineFactory)).exportSnapshot();
  const flipped = Buffer.from(snapshot);
  flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
  await t.throwsAsync(memoryEngineFactory.restore(flipped), {
    message: 'search engine snapshot is corrupt: checksum mismatch',
  });
  await t.throwsAsync(memoryEngineFactory.restore(snapshot.subarray(0, snapshot.length - 10)), {
    message: /corrupt|signature/,
  });
  await t.throwsAsync(memoryEngineFactory.restore(Buffer.from('{"not":"a snapshot"}')), {
    message: /not a search engine snapshot/,
  });
  await t.throwsAsync(memoryEngineFactory.restore(Buffer.alloc(0)), { message: /not a search engine snapshot/ });
  const otherVersion = Buffer.from(snapshot);
  otherVersion.writeUInt32LE(99, 8);
  await t.throwsAsync(memoryEngineFactory.restore(otherVersion), { message: /format version 3: it has version 99/ });
});
