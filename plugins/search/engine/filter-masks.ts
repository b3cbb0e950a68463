import { filterColumn } from '@vela/search-text';
import { NO_VALUE } from './column-codes.js';
import type { FacetColumn } from './facet-column.js';
import {
  type CompiledFilter,
  ConditionFilter,
  FacetValueFilter,
  NoValueFilter,
  NumberRangeFilter,
  OrMissingFilter,
  StringValueFilter,
} from './field-filters.js';
import type { NumberColumn } from './number-column.js';
import type { FacetRequest, FieldFilter, FilterCondition, FilterSpec } from './search-engine.js';
import type { StringColumn } from './string-column.js';

/** The bit of each filter is its index in FilterMasks.filters, so a document's failures fit one integer. */
export const MAX_FILTERS = 31;

export interface ColumnLookup {
  facet(field: string): FacetColumn | undefined;
  number(field: string): NumberColumn | undefined;
  string(field: string): StringColumn | undefined;
}

/** Which filters one consumer of the hits (the result list, or one facet count) applies, by part. */
export interface ConsumerMask {
  readonly and: number;
  readonly or: number;
  /** The `require` conditions, which every consumer applies whatever its `and` and `or`. */
  readonly must: number;
}

/** One query's filters, compiled against the columns, and which of them each consumer of the hits applies. */
export interface FilterMasks {
  readonly filters: CompiledFilter[];
  readonly main: ConsumerMask;
  /** One per FacetRequest, in request order: the filters left after its ignoreFilters. */
  readonly facets: ConsumerMask[];
  /** Filters every consumer needs (each has them in its `and` part). */
  readonly required: number;
}

/**
 * The FilterSpec rule for a document whose failed filters are the bits of `failed`: it passes when every
 * `and` filter passes and some `or` filter passes; a part with no filters is left out; no filters → pass.
 */
export function passes(mask: ConsumerMask, failed: number): boolean {
  if ((failed & (mask.must | mask.and)) !== 0) return false;
  return mask.or === 0 || (~failed & mask.or) !== 0;
}

export function compileFilters(spec: FilterSpec, requests: FacetRequest[], columns: ColumnLookup): FilterMasks {
  const and = spec.and.filter(constrains);
  const or = spec.or.filter(constrains);
  const conditions = spec.require ?? [];
  const count = and.length + or.length + conditions.length;
  if (count > MAX_FILTERS) throw new Error(`a query takes at most ${MAX_FILTERS} field filters, got ${count}`);
  const fieldFilters = [...and, ...or].map((filter) => compileFilter(filter, columns));
  const filters = [...fieldFilters, ...conditions.map((condition) => compileCondition(condition, columns))];
  let must = 0;
  for (let bit = fieldFilters.length; bit < filters.length; bit++) must |= 1 << bit;
  const maskOf = (ignore: string[] | '*'): ConsumerMask => {
    if (ignore === '*') return { and: 0, or: 0, must };
    let andMask = 0;
    let orMask = 0;
    fieldFilters.forEach((filter, bit) => {
      if (ignore.includes(filter.field)) return;
      if (bit < and.length) andMask |= 1 << bit;
      else orMask |= 1 << bit;
    });
    return { and: andMask, or: orMask, must };
  };
  const main = maskOf([]);
  const facets = requests.map((request) => maskOf(request.ignoreFilters));
  let required = main.and;
  for (const mask of facets) required &= mask.and;
  return { filters, main, facets, required: required | must };
}

/** A FieldFilter with neither values nor ranges constrains nothing and is left out. */
function constrains(filter: FieldFilter): boolean {
  return filter.values.length > 0 || (filter.ranges?.length ?? 0) > 0;
}

function compileFilter(filter: FieldFilter, columns: ColumnLookup): CompiledFilter {
  const compiled = compileValues(filter, columns);
  return filter.matchMissing ? new OrMissingFilter(compiled, missingTest(filter.field, columns)) : compiled;
}

/** Whether a document has no value at all for the field, from whichever column holds it. */
function missingTest(field: string, columns: ColumnLookup): (ordinal: number) => boolean {
  const facet = columns.facet(field);
  if (facet) return (ordinal) => facet.valueCount(ordinal) === 0;
  const number = columns.number(field);
  if (number) return (ordinal) => Number.isNaN(number.values[ordinal]!);
  const string = columns.string(field);
  if (string) return (ordinal) => string.codes[ordinal] === NO_VALUE;
  return () => true;
}

function compileCondition(condition: FilterCondition, columns: ColumnLookup): CompiledFilter {
  if ('filter' in condition) return compileFilter(condition.filter, columns);
  const parts = ('all' in condition ? condition.all : 'any' in condition ? condition.any : condition.none).map((part) =>
    compileCondition(part, columns),
  );
  return new ConditionFilter(parts, 'all' in condition ? 'all' : 'any' in condition ? 'any' : 'none');
}

function compileValues(filter: FieldFilter, columns: ColumnLookup): CompiledFilter {
  const all = filter.itemOp === 'AND';
  const facet = columns.facet(filter.field);
  const number = columns.number(filter.field);
  const string = columns.string(filter.field);
  if (!facet && !number && !string) return new NoValueFilter(filter.field);
  const read = filterColumn(filter, {
    facet: facet !== undefined,
    number: number !== undefined,
    string: string !== undefined,
  });
  if (read.column === 'facet') return new FacetValueFilter(filter.field, facet!, filter.values, all);
  if (read.column === 'number') return new NumberRangeFilter(filter.field, number!, read.ranges, all);
  return new StringValueFilter(filter.field, string!, filter.values, all);
}
