import { type AnyOrama, create, insertMultiple, search } from '@orama/orama';
import { tokenize } from '@vela/search-text';
import MiniSearch from 'minisearch';
import { createMemoryEngineFactory, memoryEngineFactory } from '../../plugins/search/engine/memory-engine.js';
import type {
  EngineQuery,
  IndexableDocument,
  SearchEngine,
  SearchEngineFactory,
} from '../../plugins/search/engine/search-engine.js';
import {
  type Attributes,
  engineSchemaFor,
  toIndexable as serviceIndexable,
} from '../../plugins/search/query/indexable.js';
import type { SiteConfig } from '../../plugins/search/store/site-types.js';
import { type BenchQuery, type CorpusDocument, searchableText } from './search-corpus.js';

/** The facet fields every system counts for every query. */
export const FACET_FIELDS = ['section', 'arch', 'tags'] as const;
const PAGE = 10;

/**
 * One system under test. `run` answers a query in full: the hit total, counts of every value of the three
 * facet fields over all hits, and the first page, and returns the total.
 */
export interface BenchSystem {
  readonly name: string;
  build(documents: CorpusDocument[]): Promise<void>;
  run(query: BenchQuery): number | Promise<number>;
}

export function toIndexable(document: CorpusDocument): IndexableDocument {
  return {
    id: String(document.id),
    text: searchableText(document),
    facets: { section: [document.section], arch: [document.arch], priority: [document.priority], tags: document.tags },
    numbers: { size: document.size },
    strings: {},
  };
}

export function engineQuery(query: BenchQuery): EngineQuery {
  return {
    text: query.text,
    filter: { and: [{ field: query.filter.field, values: [query.filter.value], itemOp: 'OR' }], or: [] },
    facets: FACET_FIELDS.map((field) => ({ field, ignoreFilters: [], limit: 0, sort: 'count' as const })),
    sort: { by: 'relevance' },
    offset: 0,
    limit: PAGE,
  };
}

/**
 * Our engine. `prefixLastTerm` also matches the last word as a prefix, as Orama does for every word; `factory`
 * picks another SearchEngine implementation (the PostgreSQL one) than the memory engine.
 */
export class VelaSystem implements BenchSystem {
  engine: SearchEngine | null = null;

  constructor(
    readonly name: string,
    private readonly prefixLastTerm = false,
    private readonly factory: SearchEngineFactory = createMemoryEngineFactory({ prefixLastTerm }),
  ) {}

  async build(documents: CorpusDocument[]): Promise<void> {
    const engine = this.factory.create({
      facetFields: ['section', 'arch', 'priority', 'tags'],
      numberFields: ['size'],
      stringFields: [],
    });
    const batch = 2000;
    for (let from = 0; from < documents.length; from += batch)
      await engine.upsert(documents.slice(from, from + batch).map(toIndexable));
    this.engine = engine;
  }

  async run(query: BenchQuery): Promise<number> {
    return (await this.engine!.query({ ...engineQuery(query), prefixLastTerm: this.prefixLastTerm })).total;
  }
}

/** A corpus record as the import API stores it: its attributes, the id as a string. */
export function asAttributes(document: CorpusDocument): Attributes {
  return { ...document, id: String(document.id) };
}

/** Changes the search service's indexer applies per step (its `indexer.batchSize` default). */
const INDEXER_STEP = 5000;

/**
 * The index the search service builds for a site and locale, built in memory: the plugin's engine
 * (`memoryEngineFactory`) with the schema its fields give (`engineSchemaFor`), fed each document as the indexer
 * analyses it (`toIndexable`: the text of every attribute, the string sort columns, the title's phrases for
 * autocomplete), in the indexer's steps. No store, no HTTP, no JSON: the floor of an import through the API,
 * which builds this same index (indexing/index-manager.ts, `applyScope`; search-service.ts checks that the two
 * export the same bytes).
 */
export class ServiceIndexSystem implements BenchSystem {
  engine: SearchEngine | null = null;
  private attributes: Attributes[] = [];

  constructor(
    readonly name: string,
    private readonly config: SiteConfig,
    private readonly locale: string,
  ) {}

  /** The documents as the import stores them, made before the timed build (as the import's request bodies are). */
  stage(documents: CorpusDocument[]): void {
    this.attributes = documents.map(asAttributes);
  }

  async build(documents: CorpusDocument[] = []): Promise<void> {
    if (documents.length > 0) this.stage(documents);
    const schema = engineSchemaFor(this.config);
    const engine = memoryEngineFactory.create(schema);
    for (let from = 0; from < this.attributes.length; from += INDEXER_STEP) {
      const step = this.attributes.slice(from, from + INDEXER_STEP);
      await engine.upsert(
        step.map((attributes) =>
          serviceIndexable(attributes.id as string, attributes, this.config, schema, this.locale),
        ),
      );
    }
    this.attributes = [];
    this.engine = engine;
  }

  async run(query: BenchQuery): Promise<number> {
    return (await this.engine!.query(engineQuery(query))).total;
  }
}

/** minisearch, AND of exact terms, tokenised like our engine; facets counted over its full result list. */
export class MiniSearchSystem implements BenchSystem {
  readonly name = 'minisearch';
  private index: MiniSearch<CorpusDocument> | null = null;

  async build(documents: CorpusDocument[]): Promise<void> {
    const index = new MiniSearch<CorpusDocument>({
      fields: ['name', 'title', 'body'],
      storeFields: [...FACET_FIELDS],
      tokenize,
      processTerm: (term) => term,
    });
    index.addAll(documents);
    this.index = index;
  }

  run(query: BenchQuery): number {
    const { field, value } = query.filter;
    const results = this.index!.search(query.text, { combineWith: 'AND', filter: (result) => result[field] === value });
    const counts = FACET_FIELDS.map(() => new Map<string, number>());
    for (const result of results) {
      FACET_FIELDS.forEach((facet, i) => {
        const values = facet === 'tags' ? (result.tags as string[]) : [result[facet] as string];
        for (const v of values) counts[i]!.set(v, (counts[i]!.get(v) ?? 0) + 1);
      });
    }
    for (const count of counts) [...count].sort((a, b) => b[1] - a[1]);
    return results.length;
  }
}

/** Orama with enum facets and `threshold: 0` (every term must match; Orama matches words as prefixes). */
export class OramaSystem implements BenchSystem {
  readonly name = 'orama';
  private db: AnyOrama | null = null;

  async build(documents: CorpusDocument[]): Promise<void> {
    const db = create({
      // The id must be a string and stay out of the schema.
      schema: {
        name: 'string',
        title: 'string',
        body: 'string',
        section: 'enum',
        arch: 'enum',
        priority: 'enum',
        tags: 'enum[]',
        size: 'number',
      },
    });
    await insertMultiple(
      db,
      documents.map((d) => ({
        id: String(d.id),
        name: d.name,
        title: d.title,
        body: d.body,
        section: d.section,
        arch: d.arch,
        priority: d.priority,
        tags: d.tags,
        size: d.size,
      })),
      1000,
    );
    this.db = db;
  }

  async run(query: BenchQuery): Promise<number> {
    const { field, value } = query.filter;
    const result = await search(this.db!, {
      term: query.text,
      properties: ['name', 'title', 'body'],
      where: { [field]: { eq: value } },
      facets: { section: { limit: 1000 }, arch: { limit: 10 }, tags: { limit: 5000 } },
      threshold: 0,
      limit: PAGE,
    });
    return result.count;
  }
}
