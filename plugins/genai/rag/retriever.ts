import type { SiteDefaultFields, SiteSearch, StoredDocument } from '@vela/plugin-search/api';
import type { Passage } from '../providers/provider.js';
import { keywords, sentences, stem, terms } from './text.js';

export interface RetrievalOptions {
  /** Documents to read. */
  documents: number;
  /** Passages to keep, over all documents. */
  passages: number;
  /** Longest passage, in characters. */
  passageChars: number;
  /** `field:value` filters, as the search's fq[]. */
  filters?: readonly string[];
  /**
   * How the first search ranks (the search's `semantic` parameter); default `hybrid`: keyword and vector results
   * fused, which the search runs as `keyword` by itself on a site without vectors.
   */
  semantic?: SemanticMode;
}

export const SEMANTIC_MODES = ['keyword', 'hybrid', 'vector'] as const;
export type SemanticMode = (typeof SEMANTIC_MODES)[number];

export interface RetrievedDocument {
  id: string;
  title: string;
  url: string | null;
  text: string;
  /** 0 = best. */
  rank: number;
}

export interface Retrieval {
  site: string;
  locale: string;
  documents: RetrievedDocument[];
  /** The kept passages, in document order, numbered by document (every passage of one document has the same n). */
  passages: Passage[];
  /** Searches made through search.service. */
  searches: number;
}

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').join(', ')
      : value == null
        ? ''
        : String(value);

/** The title, link and text of a stored document, from the site's default fields. */
export function describe(doc: StoredDocument, fields: SiteDefaultFields): Omit<RetrievedDocument, 'rank'> {
  const named = [fields.description, fields.text].filter((f, i, all): f is string => !!f && all.indexOf(f) === i);
  let body = named
    .map((f) => text(doc.fields[f]))
    .filter(Boolean)
    .join('\n\n');
  if (!body) {
    const skip = new Set(['id', fields.url, fields.title, fields.image, fields.date]);
    body = Object.entries(doc.fields)
      .filter(([name, value]) => !skip.has(name) && typeof value === 'string')
      .map(([, value]) => value as string)
      .join('\n\n');
  }
  const url = fields.url ? doc.fields[fields.url] : undefined;
  return {
    id: doc.id,
    title: (fields.title && text(doc.fields[fields.title])) || doc.id,
    url: typeof url === 'string' && url ? url : null,
    text: body,
  };
}

/**
 * Retrieval through the search plugin's published service: the question's keywords all at once, by hybrid
 * search (keyword and vector results fused) unless told otherwise, and, when that finds too few documents (a
 * site without vectors, whose search ANDs the keywords), each keyword (and its stem) alone, ranked by how
 * rare it is; then the stored documents are read, split into passages, and the passages ranked against the
 * question with BM25.
 */
export class Retriever {
  constructor(private readonly search: () => SiteSearch) {}

  async retrieve(site: string, locale: string, question: string, options: RetrievalOptions): Promise<Retrieval> {
    const service = this.search();
    const wanted = options.documents;
    const query = (q: string, semantic: SemanticMode = 'keyword') => {
      const params = new URLSearchParams({ q, _setlocale: locale, rows: String(wanted), fl: 'id' });
      if (semantic !== 'keyword') params.set('semantic', semantic);
      for (const filter of options.filters ?? []) params.append('fq[]', filter);
      return params.toString();
    };
    const words = keywords(question);
    let searches = 1;
    const first = await service.search(
      site,
      query(words.length > 0 ? words.join(' ') : '*', options.semantic ?? 'hybrid'),
    );
    const resolvedLocale = first.queryContext.query.locale;
    const defaults = first.queryContext.defaultFields;
    const score = new Map<string, number>();
    const ids = (r: typeof first) => (r.results?.document ?? []).map((d) => String(d.fields.id ?? '')).filter(Boolean);
    for (const [rank, id] of ids(first).entries()) score.set(id, 100 - rank / wanted);

    if (score.size < wanted && words.length > 1) {
      const variants = [...new Set(words.flatMap((w) => [w, stem(w)]).filter((w) => w.length > 1))];
      const results = await Promise.all(variants.map((w) => service.search(site, query(w))));
      searches += variants.length;
      for (const result of results) {
        // A rare keyword says more about the question than one every document has.
        const weight = 1 / Math.log(2 + result.queryContext.count);
        for (const [rank, id] of ids(result).entries())
          score.set(id, (score.get(id) ?? 0) + weight * (1 - rank / (2 * wanted)));
      }
    }
    const ranked = [...score].sort((a, b) => b[1] - a[1]).slice(0, wanted);
    const stored =
      ranked.length > 0
        ? await service.documents(
            site,
            resolvedLocale,
            ranked.map(([id]) => id),
          )
        : [];
    const documents = stored.map((doc, rank) => ({ ...describe(doc, defaults), rank }));
    return { site, locale: resolvedLocale, documents, passages: rankPassages(question, documents, options), searches };
  }
}

interface Candidate {
  doc: RetrievedDocument;
  position: number;
  text: string;
  terms: string[];
}

/**
 * Split documents into passages of whole sentences and keep the best `options.passages` by BM25 (plus a prior for
 * better-ranked documents).
 */
export function rankPassages(
  question: string,
  documents: RetrievedDocument[],
  options: Pick<RetrievalOptions, 'passages' | 'passageChars'>,
): Passage[] {
  const candidates: Candidate[] = [];
  for (const doc of documents) {
    let current = '';
    let position = 0;
    const push = () => {
      // The first passage carries the title's words: a question about the title finds the document's start.
      if (current)
        candidates.push({
          doc,
          position,
          text: current,
          terms: terms(`${position === 0 ? doc.title : ''} ${current}`),
        });
      if (current) position++;
      current = '';
    };
    for (const sentence of sentences(doc.text)) {
      if (current && current.length + sentence.length + 1 > options.passageChars) push();
      current = current ? `${current} ${sentence}` : sentence;
    }
    push();
    if (!doc.text.trim()) candidates.push({ doc, position: 0, text: '', terms: terms(doc.title) });
  }
  const asked = [...new Set(terms(question))];
  const df = new Map<string, number>();
  for (const c of candidates) for (const t of new Set(c.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = candidates.length;
  const avg = candidates.reduce((sum, c) => sum + c.terms.length, 0) / Math.max(1, n);
  const bm25 = (c: Candidate) => {
    let s = 0;
    for (const t of asked) {
      const tf = c.terms.filter((x) => x === t).length;
      if (tf === 0) continue;
      const d = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      s += (idf * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * c.terms.length) / Math.max(1, avg)));
    }
    return s + 0.5 / (1 + c.doc.rank) + (c.position === 0 ? 0.1 : 0);
  };
  const kept = candidates
    .map((c) => ({ c, s: bm25(c) }))
    .sort((a, b) => b.s - a.s || a.c.doc.rank - b.c.doc.rank || a.c.position - b.c.position)
    .slice(0, options.passages)
    .map(({ c }) => c)
    .sort((a, b) => a.doc.rank - b.doc.rank || a.position - b.position);
  const numbers = new Map<string, number>();
  return kept.map((c) => {
    if (!numbers.has(c.doc.id)) numbers.set(c.doc.id, numbers.size + 1);
    return {
      n: numbers.get(c.doc.id)!,
      docId: c.doc.id,
      title: c.doc.title,
      url: c.doc.url,
      text: c.text,
      docRank: c.doc.rank,
    };
  });
}
