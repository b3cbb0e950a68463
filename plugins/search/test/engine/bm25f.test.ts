import test, { type ExecutionContext } from 'ava';
import { createMemoryEngineFactory, memoryEngineFactory } from '../../engine/memory-engine.js';
import type { EngineQuery, IndexableDocument, SearchEngine, SearchEngineFactory } from '../../engine/search-engine.js';
import { engineQuery } from './engine-query.js';
import { type EngineVariant, engineVariants } from './engine-variants.js';

// Relevance, BM25F (see @vela/search-text's bm25f): what each part of the rule changes in the order of the hits,
// on every engine, and on the memory engine alone the length normalisation the PostgreSQL engine leaves out
// (docs/search-reference.md, Ranking).

const SCHEMA = { facetFields: [], numberFields: [], stringFields: [] };

function doc(id: string, text: string, extra: Partial<IndexableDocument> = {}): IndexableDocument {
  return { id, text, facets: {}, numbers: {}, strings: {}, ...extra };
}

/** A document whose text is a title (boost `titleBoost`) and a body (boost 1). */
function titled(id: string, title: string, body: string, titleBoost = 2): IndexableDocument {
  return doc(id, `${title}\n${body}`, {
    fields: [
      { name: 'title', text: title, boost: titleBoost },
      { name: 'body', text: body, boost: 1 },
    ],
  });
}

async function idsFor(engine: SearchEngine, text: string, partial: Partial<EngineQuery> = {}): Promise<string[]> {
  const result = await engine.query(engineQuery({ text, ...partial }));
  return result.hits.map((hit) => hit.id);
}

async function engineWith(
  documents: IndexableDocument[],
  factory: SearchEngineFactory = memoryEngineFactory,
  variant?: EngineVariant,
): Promise<SearchEngine> {
  const engine = factory.create(SCHEMA);
  await engine.upsert(documents);
  await variant?.settle(engine);
  return engine;
}

const filler = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `filler${from + i}`).join(' ');

function registerCases(variant: EngineVariant): void {
  const it = (title: string, run: (t: ExecutionContext) => Promise<void>) =>
    variant.test(`${variant.name}: ${title}`, run);
  const on = (documents: IndexableDocument[]) => engineWith(documents, variant.factory(), variant);

  it('a rare term weighs more than a common one (idf)', async (t) => {
    const common = Array.from({ length: 20 }, (_, i) => doc(`c${i}`, `common ${filler(3, i)}`));
    const engine = await on([
      doc('common-twice', 'rare common common filler'),
      doc('rare-twice', 'rare rare common filler'),
      ...common,
    ]);
    t.deepEqual(await idsFor(engine, 'rare common'), ['rare-twice', 'common-twice']);
  });

  it('more occurrences weigh more, saturating, and k1 0 counts a term once', async (t) => {
    const engine = await on([doc('once', 'word a b c d e f g'), doc('thrice', 'word word word a b c d e')]);
    t.deepEqual(await idsFor(engine, 'word'), ['thrice', 'once']);
    t.deepEqual(await idsFor(engine, 'word', { k1: 0 }), ['once', 'thrice'], 'a tie, in indexing order');
    await t.throwsAsync(async () => engine.query(engineQuery({ text: 'word', limit: 10, k1: -1 })), {
      message: /k1 must be/,
    });
  });

  it("a field's boost weighs its terms: the title above the body, a boost of 0 matching without weight", async (t) => {
    const engine = await on([
      titled('in-body', 'garden tools', `rocket ${filler(4)}`),
      titled('in-title', 'rocket engines', `garden ${filler(4, 10)}`),
    ]);
    t.deepEqual(await idsFor(engine, 'rocket'), ['in-title', 'in-body']);
    t.deepEqual(await idsFor(engine, 'garden'), ['in-body', 'in-title']);
    const muted = await on([
      titled('in-body', 'garden tools', `rocket ${filler(4)}`),
      titled('in-title', 'rocket engines', `garden ${filler(4, 10)}`, 0),
    ]);
    t.deepEqual(await idsFor(muted, 'rocket'), ['in-body', 'in-title'], 'the muted title still matches');
  });

  it('a title with two query terms side by side gets a bonus', async (t) => {
    const engine = await on([
      doc('apart', 'source of open data', { phrases: ['source open', 'open data'] }),
      doc('together', 'open source data', { phrases: ['open source', 'source data'] }),
    ]);
    t.deepEqual(await idsFor(engine, 'open source'), ['together', 'apart']);
    t.deepEqual(await idsFor(engine, 'source open'), ['apart', 'together']);
  });
}

for (const variant of engineVariants(test)) registerCases(variant);

test('memory: a bad k1 is refused when the engine is made', (t) => {
  t.throws(() => createMemoryEngineFactory({ k1: Number.NaN }).create(SCHEMA), { message: /k1 must be/ });
});

test('memory: a term in a short field weighs more than in a long one (length normalisation)', async (t) => {
  const engine = await engineWith([doc('long', `rocket ${filler(30)}`), doc('short', 'rocket launch')]);
  t.deepEqual(await idsFor(engine, 'rocket'), ['short', 'long']);
});

test('memory: a bad field list is refused with the document named', async (t) => {
  const engine = memoryEngineFactory.create(SCHEMA);
  t.throws(() => engine.upsert([doc('x', 'a', { fields: [{ name: 'title', text: 'a', boost: -1 }] })]), {
    message: /document "x": fields must be/,
  });
  t.throws(() => engine.upsert([doc('x', 'a', { fields: [{ name: 'title', text: 'a', boost: 1, b: 2 }] })]), {
    message: /document "x": fields must be/,
  });
});

test("memory: a snapshot keeps the fields' lengths: documents added after a restore weigh as on the original", async (t) => {
  const engine = await engineWith([
    titled('a', 'rocket science', filler(10)),
    titled('b', 'garden', `rocket ${filler(20, 50)}`),
  ]);
  const restored = await memoryEngineFactory.restore(await engine.exportSnapshot());
  const later = [titled('c', 'rocket', filler(5, 100)), titled('d', 'rocket rocket garden', filler(2, 200))];
  await engine.upsert(later);
  await restored.upsert(later);
  const page = engineQuery({ text: 'rocket', limit: 10 });
  t.deepEqual(await restored.query(page), await engine.query(page));
});
