// What every engine checks and derives from its input the same way, so that two engines given one schema and
// one query agree on what was asked.
import { tokenize } from './text-analyzer.js';

/** The field lists of an engine schema (the search plugin's EngineSchema). */
export interface EngineFieldLists {
  facetFields: string[];
  numberFields: string[];
  stringFields: string[];
}

/** The page of an engine query (the search plugin's EngineQuery). */
export interface EnginePaging {
  offset: number;
  limit: number;
}

export interface QueryTerms {
  /** Distinct terms in query order; none for null, '' and '*' (every document). */
  terms: string[];
  /** Whether the last term is the one typed last (and only there), so it may be matched as a prefix. */
  lastTypedLast: boolean;
}

export function queryTerms(text: string | null): QueryTerms {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '' || trimmed === '*') return { terms: [], lastTypedLast: false };
  const tokens = tokenize(trimmed);
  const terms = [...new Set(tokens)];
  return { terms, lastTypedLast: terms.length > 0 && tokens.indexOf(terms[terms.length - 1]!) === tokens.length - 1 };
}

export function checkSchema(schema: EngineFieldLists): EngineFieldLists {
  for (const key of ['facetFields', 'numberFields', 'stringFields'] as const) {
    const fields = schema?.[key];
    if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string' || field === '')) {
      throw new Error(`engine schema: ${key} must be an array of field names`);
    }
    if (new Set(fields).size !== fields.length) throw new Error(`engine schema: ${key} lists a field twice`);
  }
  return {
    facetFields: [...schema.facetFields],
    numberFields: [...schema.numberFields],
    stringFields: [...schema.stringFields],
  };
}

export function checkPaging(query: EnginePaging): void {
  for (const key of ['offset', 'limit'] as const) {
    if (!Number.isInteger(query[key]) || query[key] < 0)
      throw new Error(`query ${key} must be an integer ≥ 0, got ${String(query[key])}`);
  }
}
