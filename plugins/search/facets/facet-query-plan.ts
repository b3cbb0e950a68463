import { httpErrors } from 'vela/plugin';
import { MAX_FILTERS } from '../engine/filter-masks.js';
import type { FacetRequest, FieldFilter, FilterSpec } from '../engine/search-engine.js';
import type { SearchParams } from '../query/search-params.js';
import type { Field, SiteConfig } from '../store/site-types.js';
import { type FieldOperators, resolveOperators } from './operators.js';

/** Everything the search needs to know about facets and filters for one request. */
export interface FacetQueryPlan {
  filter: FilterSpec;
  facetRequests: FacetRequest[];
  /** Facet fields in display order, with their resolved operators. */
  facets: Array<{ field: Field; ops: FieldOperators }>;
  /** Fields named by any filter of the request (fq, fqAnd, fqOr) that are facets. */
  filteredFacetFields: Set<string>;
  /** Raw fq[] values per field. */
  selectedByField: Map<string, string[]>;
}

const BOUND = '\\*|-?\\d+(?:\\.\\d+)?|\\d{4}-\\d{2}-\\d{2}(?:T[\\d:.]+(?:Z|[+-]\\d{2}:?\\d{2})?)?';
const RANGE = new RegExp(`^\\[\\s*(${BOUND})\\s+TO\\s+(${BOUND})\\s*\\]$`, 'i');

function splitFq(fq: string): [string, string] {
  const colon = fq.indexOf(':');
  return [fq.slice(0, colon), fq.slice(colon + 1)];
}

/** `"News"` and `News` filter the same value. */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** A range bound: null for `*` (open), NaN when it is not a number or a date. */
function bound(text: string, end: 'from' | 'to'): number | null {
  if (text === '*') return null;
  // A day without a time covers the whole day: from its first to its last millisecond (UTC).
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T${end === 'from' ? '00:00:00.000' : '23:59:59.999'}Z` : null;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Date.parse(day ?? text);
}

const NUMERIC = new Set(['INT', 'LONG', 'FLOAT', 'DATE']);

function fieldFilter(
  config: SiteConfig,
  name: string,
  values: string[],
  itemOp: 'AND' | 'OR',
  param: string,
): FieldFilter {
  const field = config.fieldsByName.get(name);
  if (!field?.enabled)
    throw httpErrors.invalidParameter(param, `names field "${name}", which site "${config.site.name}" does not have`);
  const exact: string[] = [];
  const ranges: Array<[number | null, number | null]> = [];
  for (const value of values) {
    if (NUMERIC.has(field.type) && value.startsWith('[')) {
      const range = RANGE.exec(value);
      const from = range ? bound(range[1]!, 'from') : NaN;
      const to = range ? bound(range[2]!, 'to') : NaN;
      if (Number.isNaN(from) || Number.isNaN(to)) {
        const bounds =
          field.type === 'DATE'
            ? 'UTC date-times like 2026-03-01T00:00:00Z, days like 2026-03-01, epoch milliseconds'
            : 'numbers';
        throw httpErrors.invalidParameter(
          param,
          `has a malformed range ${JSON.stringify(`${name}:${value}`)}: write ${name}:[from TO to] with ${bounds}, or * for an open end`,
        );
      }
      ranges.push([from, to]);
    } else if (field.facet) exact.push(unquote(value));
    else
      throw httpErrors.invalidParameter(
        param,
        `filters on "${name}", which is not a facet (filter numbers and dates with ${name}:[from TO to])`,
      );
  }
  return ranges.length > 0 ? { field: name, values: exact, ranges, itemOp } : { field: name, values: exact, itemOp };
}

function byPosition(a: Field, b: Field): number {
  return (a.facetPosition ?? Number.MAX_SAFE_INTEGER) - (b.facetPosition ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Group the request's filters by field and operator into the engine's FilterSpec, and say for each
 * facet what its counts ignore: an OR-within facet is counted with its own filter removed
 * (multi-select); an OR-between facet as the original did (every filter removed while it is not
 * itself filtered).
 */
export function planFacetQuery(config: SiteConfig, params: SearchParams): FacetQueryPlan {
  const { site } = config;
  const groups = new Map<
    string,
    { facetType: 'AND' | 'OR'; itemType: 'AND' | 'OR'; values: string[]; param: string }
  >();
  const selectedByField = new Map<string, string[]>();
  const add = (fq: string, param: string, forcedFacetType: 'AND' | 'OR' | null) => {
    const [name, value] = splitFq(fq);
    const ops = resolveOperators(site, config.fieldsByName.get(name), params.fqOperator, params.fqItemOperator);
    const facetType = forcedFacetType ?? ops.facetType;
    const key = `${facetType}\u0000${name}`;
    const group = groups.get(key) ?? { facetType, itemType: ops.itemType, values: [], param };
    if (!group.values.includes(value)) group.values.push(value);
    groups.set(key, group);
  };
  for (const fq of params.fq) {
    add(fq, 'fq[]', null);
    const [name] = splitFq(fq);
    selectedByField.set(name, [...(selectedByField.get(name) ?? []), fq]);
  }
  for (const fq of params.fqAnd) add(fq, 'fqAnd', 'AND');
  for (const fq of params.fqOr) add(fq, 'fqOr', 'OR');

  const filter: FilterSpec = { and: [], or: [] };
  const filteredFields = new Set<string>();
  for (const [key, group] of groups) {
    const name = key.slice(key.indexOf('\u0000') + 1);
    filteredFields.add(name);
    filter[group.facetType === 'AND' ? 'and' : 'or'].push(
      fieldFilter(config, name, group.values, group.itemType, group.param),
    );
  }
  // Targeting rules: per attribute, a document passes with one of the rule values or without the
  // attribute at all; attributes are ANDed (after the original's rule form).
  const rules = new Map<string, string[]>();
  for (const rule of params.targetingRules) {
    const [name, value] = splitFq(rule);
    const field = config.fieldsByName.get(name);
    if (!field?.facet)
      throw httpErrors.invalidParameter(
        'targetingRules',
        `names "${name}", which is not a facet field of site "${site.name}"`,
      );
    rules.set(name, [...(rules.get(name) ?? []), unquote(value)]);
  }
  for (const [name, values] of rules)
    filter.and.push({ field: name, values: [...new Set(values)], itemOp: 'OR', matchMissing: true });

  if (filter.and.length + filter.or.length > MAX_FILTERS) {
    throw httpErrors.invalidParameter(
      'fq[]',
      `names ${filter.and.length + filter.or.length} filtered fields; a search takes at most ${MAX_FILTERS} (targeting rules count too)`,
    );
  }

  // The site's Facet switch governs widget.facet; secondary facets are independent of it (spec).
  const facets = config.fields
    .filter((f) => f.facet && f.enabled && (site.facet || f.secondaryFacet))
    .sort(byPosition)
    .map((field) => ({ field, ops: resolveOperators(site, field, params.fqOperator, params.fqItemOperator) }));
  const filteredFacetFields = new Set([...filteredFields].filter((name) => config.fieldsByName.get(name)?.facet));
  const facetRequests: FacetRequest[] = facets.map(({ field, ops }) => ({
    field: field.name,
    ignoreFilters: ignoredFor(field.name, ops, filteredFields),
    limit: site.itemsPerFacet,
    allValues: field.showAllFacetItems,
    sort: (field.facetSort === 'DEFAULT' ? site.facetSort : field.facetSort) === 'ALPHABETICAL' ? 'index' : 'count',
    include: (selectedByField.get(field.name) ?? []).map((fq) => unquote(splitFq(fq)[1])),
  }));
  return { filter, facetRequests, facets, filteredFacetFields, selectedByField };
}

function ignoredFor(field: string, ops: FieldOperators, filtered: Set<string>): string[] | '*' {
  if (ops.facetType === 'OR' && (ops.itemType === 'OR' || !filtered.has(field))) return '*';
  if (ops.itemType === 'OR') return [field];
  return [];
}
