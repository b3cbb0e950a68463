import { analyze, tokenize } from '@vela/search-text';
import type { EngineQuery, FieldFilter, IndexableDocument } from '../../engine/search-engine.js';

/**
 * The engine's semantics written the slow and obvious way, to check it against: every query scans every
 * document. Facet fields are `color` (single-valued), `tags` (multi-valued); number field `size`; string
 * field `title`.
 */
export class ReferenceSearch {
  readonly documents = new Map<string, IndexableDocument>();

  upsert(documents: IndexableDocument[]): void {
    for (const document of documents) this.documents.set(document.id, document);
  }

  remove(ids: string[]): void {
    for (const id of ids) this.documents.delete(id);
  }

  /** Matching ids with their rank (sum of the query terms' slots), for the text alone. */
  textMatches(text: string | null, resolution = 5): Map<string, number> {
    const terms = text === null || text.trim() === '' || text.trim() === '*' ? [] : [...new Set(tokenize(text))];
    const out = new Map<string, number>();
    for (const document of this.documents.values()) {
      if (terms.length === 0) {
        out.set(document.id, 0);
        continue;
      }
      const analysed = analyze(document.text, resolution);
      let rank = 0;
      let all = true;
      for (const term of terms) {
        const at = analysed.terms.indexOf(term);
        if (at < 0) {
          all = false;
          break;
        }
        rank += analysed.slots[at]!;
      }
      if (all) out.set(document.id, rank);
    }
    return out;
  }

  /** Total, hit ids and facet counts (as maps) of a query. */
  query(query: EngineQuery): { total: number; ids: Set<string>; facets: Record<string, Map<string, number>> } {
    const matches = this.textMatches(query.text);
    const ids = new Set<string>();
    const facets: Record<string, Map<string, number>> = {};
    for (const request of query.facets) facets[request.field] = new Map();
    for (const id of matches.keys()) {
      const document = this.documents.get(id)!;
      if (passesSpec(document, query.filter.and, query.filter.or, [])) ids.add(id);
      for (const request of query.facets) {
        if (
          request.ignoreFilters !== '*' &&
          !passesSpec(document, query.filter.and, query.filter.or, request.ignoreFilters)
        )
          continue;
        const counts = facets[request.field]!;
        for (const value of new Set(document.facets[request.field] ?? []))
          counts.set(value, (counts.get(value) ?? 0) + 1);
      }
    }
    return { total: ids.size, ids, facets };
  }
}

function passesSpec(document: IndexableDocument, and: FieldFilter[], or: FieldFilter[], ignored: string[]): boolean {
  const active = (filters: FieldFilter[]) =>
    filters.filter((f) => !ignored.includes(f.field) && (f.values.length > 0 || (f.ranges?.length ?? 0) > 0));
  const andPart = active(and);
  const orPart = active(or);
  return (
    andPart.every((f) => passesField(document, f)) &&
    (orPart.length === 0 || orPart.some((f) => passesField(document, f)))
  );
}

function passesField(document: IndexableDocument, filter: FieldFilter): boolean {
  const items: boolean[] = [];
  if (filter.field in document.numbers || filter.field === 'size') {
    const value = document.numbers[filter.field];
    for (const [low, high] of filter.ranges ?? []) {
      items.push(typeof value === 'number' && value >= (low ?? -Infinity) && value <= (high ?? Infinity));
    }
    for (const exact of filter.values) items.push(typeof value === 'number' && value === Number(exact));
  } else {
    const values = document.facets[filter.field] ?? [];
    for (const wanted of new Set(filter.values)) items.push(values.includes(wanted));
  }
  return filter.itemOp === 'AND' ? items.every(Boolean) : items.some(Boolean);
}

/** Deterministic PRNG (mulberry32) for the property tests. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'sigma',
  'omega',
  'rho',
  'tau',
  'phi',
];
export const COLORS = ['red', 'green', 'blue', 'black', 'white', 'pink'];
export const TAGS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];

/** A random document over a small vocabulary, so that queries match many documents. */
export function randomDocument(random: () => number, id: string): IndexableDocument {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const words = Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick(WORDS));
  const tags = Array.from({ length: Math.floor(random() * 4) }, () => pick(TAGS));
  return {
    id,
    text: words.join(random() < 0.5 ? ' ' : ', '),
    facets: { color: random() < 0.9 ? [pick(COLORS)] : [], tags },
    numbers: { size: random() < 0.85 ? Math.floor(random() * 100) : null },
    strings: { title: random() < 0.85 ? `${pick(WORDS)} ${pick(WORDS)}` : null },
  };
}
