// What every engine checks and derives from its input the same way, so that two engines given one schema and
// one query agree on what was asked.
import type { TextField } from './bm25f.js';
import { ownValue } from './own-property.js';
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

/** A filter of an engine query (the search plugin's FieldFilter): the members that say which column it reads. */
export interface EngineFilterValues {
  field: string;
  values: string[];
  ranges?: Array<[number | null, number | null]>;
}

/** The column a filter reads; a number filter's exact values and ranges as inclusive ranges. */
export type FilterColumn =
  | { column: 'facet' }
  | { column: 'number'; ranges: Array<[number, number]> }
  | { column: 'string' };

/**
 * Which column a filter on a field reads, given the columns the field has; throws when it has none or ranges ask
 * for a field that is not a number.
 */
export function filterColumn(
  filter: EngineFilterValues,
  has: { facet: boolean; number: boolean; string: boolean },
): FilterColumn {
  const hasRanges = (filter.ranges?.length ?? 0) > 0;
  // Ranges need the number column; a field that is both a facet and a number takes ranges there.
  if (has.facet && !(hasRanges && has.number)) {
    if (hasRanges)
      throw new Error(
        `filter on "${filter.field}": ranges need a number field, and "${filter.field}" is a facet field`,
      );
    return { column: 'facet' };
  }
  if (has.number) {
    const ranges: Array<[number, number]> = (filter.ranges ?? []).map(([low, high]) => [
      low ?? -Infinity,
      high ?? Infinity,
    ]);
    for (const value of filter.values) {
      const exact = Number(value);
      // A value that is not a number matches nothing; as an empty range it keeps AND/OR meaning right.
      ranges.push(Number.isNaN(exact) ? [Infinity, -Infinity] : [exact, exact]);
    }
    return { column: 'number', ranges };
  }
  if (has.string) {
    if (hasRanges)
      throw new Error(
        `filter on "${filter.field}": ranges need a number field, and "${filter.field}" is a string field`,
      );
    return { column: 'string' };
  }
  throw new Error(`filter on "${filter.field}": the engine schema has no such facet, number or string field`);
}

/** A document as engines index it (the search plugin's IndexableDocument): the members checked here. */
export interface EngineDocumentValues {
  id: string;
  text: string;
  fields?: TextField[];
  facets: Record<string, string[]>;
  numbers: Record<string, number | null>;
  strings: Record<string, string | null>;
}

/** Throws unless the document's id, text and values of the schema's fields have their types; other fields are ignored. */
export function checkDocument(schema: EngineFieldLists, document: EngineDocumentValues): void {
  if (typeof document?.id !== 'string' || document.id === '') throw new Error('document id must be a non-empty string');
  const where = `document "${document.id}"`;
  if (typeof document.text !== 'string') throw new Error(`${where}: text must be a string`);
  if (document.fields !== undefined && !(Array.isArray(document.fields) && document.fields.every(isTextField)))
    throw new Error(`${where}: fields must be an array of {name, text, boost ≥ 0, b from 0 to 1}`);
  for (const field of schema.facetFields) {
    const values = ownValue(document.facets, field);
    if (values !== undefined && !(Array.isArray(values) && values.every((value) => typeof value === 'string'))) {
      throw new Error(`${where}: facets.${field} must be an array of strings`);
    }
  }
  for (const field of schema.numberFields) {
    const value = ownValue(document.numbers, field);
    if (value !== undefined && value !== null && typeof value !== 'number')
      throw new Error(`${where}: numbers.${field} must be a number or null`);
  }
  for (const field of schema.stringFields) {
    const value = ownValue(document.strings, field);
    if (value !== undefined && value !== null && typeof value !== 'string')
      throw new Error(`${where}: strings.${field} must be a string or null`);
  }
}

function isTextField(field: TextField): boolean {
  return (
    typeof field?.name === 'string' &&
    typeof field.text === 'string' &&
    Number.isFinite(field.boost) &&
    field.boost >= 0 &&
    (field.b === undefined || (Number.isFinite(field.b) && field.b >= 0 && field.b <= 1))
  );
}
