import { httpErrors } from 'vela/plugin';
import { MAX_FILTERS } from '../engine/filter-masks.js';
import type { FacetRequest, FieldFilter, FilterCondition, FilterSpec } from '../engine/search-engine.js';
import { fieldValueRules, type SearchParams } from '../query/search-params.js';
import type { SearchWarning } from '../query/search-response.js';
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
  /** Filters and rules on fields the site does not have, and rules left out (queryContext.warnings). */
  warnings: SearchWarning[];
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

/** A filter of a field the site has and filters by (a facet, or a number or date range). */
function fieldFilter(field: Field, values: string[], itemOp: 'AND' | 'OR', param: string): FieldFilter {
  const name = field.name;
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

/** The site's enabled field of that name; undefined for one it does not have. */
function knownField(config: SiteConfig, name: string): Field | undefined {
  const field = config.fieldsByName.get(name);
  return field?.enabled ? field : undefined;
}

function unknownField(config: SiteConfig, param: string, name: string, outcome: string): SearchWarning {
  return {
    code: 'unknown_field',
    parameter: param,
    message: `${param} names field "${name}", which site "${config.site.name}" does not have: ${outcome}`,
  };
}

function byPosition(a: Field, b: Field): number {
  return (a.facetPosition ?? Number.MAX_SAFE_INTEGER) - (b.facetPosition ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Group the request's filters by part and field into the engine's FilterSpec: fq[] in the part of the operators in
 * force (AND between facets: the AND part; OR: the OR part), each field's values joined by its item operator;
 * fq.and[] in the AND part, a field's values all required; fq.or[] in the OR part, any of its values enough. A
 * document must pass the whole AND part and, when there is one, some filter of the OR part: the AND filters narrow
 * the OR ones, as the parameters' names say (the original joins the two parts by OR instead, and joins fq.or[]
 * values by the item operator, so that `fqAnd` widened the search and two `fqOr` values of one field found nothing
 * on a site whose values are ANDed). A field the site does not have matches no document (the original's Solr
 * finds none with it). Facet counts: an OR-within facet is counted with its own filter removed (multi-select); an
 * OR-between facet without the OR part's filters while it is not itself filtered.
 */
export function planFacetQuery(config: SiteConfig, params: SearchParams): FacetQueryPlan {
  const { site } = config;
  const warnings: SearchWarning[] = [];
  type Part = 'AND' | 'OR';
  const groups = new Map<string, { name: string; part: Part; itemType: Part; values: string[]; param: string }>();
  const selectedByField = new Map<string, string[]>();
  const add = (fq: string, param: string, forced: Part | null) => {
    const [name, value] = splitFq(fq);
    const field = knownField(config, name);
    const ops = resolveOperators(site, field, params.fqOperator, params.fqItemOperator);
    const part = forced ?? ops.facetType;
    // fq[] values of a field join by its item operator; fq.and[] and fq.or[] ones are a filter of their own.
    const key = `${forced ?? 'fq'}\u0000${part}\u0000${name}`;
    let group = groups.get(key);
    if (!group) {
      if (![...groups.values()].some((g) => g.name === name) && !field)
        warnings.push(unknownField(config, param, name, 'the filter matches no document'));
      group = { name, part, itemType: forced ?? ops.itemType, values: [], param };
      groups.set(key, group);
    }
    if (!group.values.includes(value)) group.values.push(value);
  };
  for (const fq of params.fq) {
    add(fq, 'fq[]', null);
    const [name] = splitFq(fq);
    selectedByField.set(name, [...(selectedByField.get(name) ?? []), fq]);
  }
  for (const fq of params.fqAnd) add(fq, 'fqAnd', 'AND');
  for (const fq of params.fqOr) add(fq, 'fqOr', 'OR');

  const filter: FilterSpec = { and: [], or: [] };
  for (const group of groups.values()) {
    const field = knownField(config, group.name);
    filter[group.part === 'AND' ? 'and' : 'or'].push(
      field
        ? fieldFilter(field, group.values, group.itemType, group.param)
        : { field: group.name, values: group.values, itemOp: group.itemType },
    );
  }
  const targeting = targetingCondition(config, params, warnings);
  if (targeting) filter.require = [targeting];

  const filterCount = filter.and.length + filter.or.length + (targeting ? 1 : 0);
  if (filterCount > MAX_FILTERS) {
    throw httpErrors.invalidParameter(
      'fq[]',
      `names ${filterCount} filtered fields; a search takes at most ${MAX_FILTERS} (targeting rules count too)`,
    );
  }

  // The site's Facet switch governs widget.facet; secondary facets are independent of it (spec).
  const facets = config.fields
    .filter((f) => f.facet && f.enabled && (site.facet || f.secondaryFacet))
    .sort(byPosition)
    .map((field) => ({ field, ops: resolveOperators(site, field, params.fqOperator, params.fqItemOperator) }));
  const filteredFields = new Set([...groups.values()].map((group) => group.name));
  const filteredFacetFields = new Set([...filteredFields].filter((name) => knownField(config, name)?.facet));
  const orFields = [...new Set(filter.or.map((f) => f.field))];
  const facetRequests: FacetRequest[] = facets.map(({ field, ops }) => ({
    field: field.name,
    ignoreFilters: ignoredFor(field.name, ops, filteredFields, orFields),
    limit: site.itemsPerFacet,
    allValues: field.showAllFacetItems,
    sort: (field.facetSort === 'DEFAULT' ? site.facetSort : field.facetSort) === 'ALPHABETICAL' ? 'index' : 'count',
    include: (selectedByField.get(field.name) ?? []).map((fq) => unquote(splitFq(fq)[1])),
  }));
  return { filter, facetRequests, facets, filteredFacetFields, selectedByField, warnings };
}

/**
 * The targeting rules as one condition every document must meet, whatever the filters' parts and the facet counts:
 * the original adds them as a filter query of their own. null without rules.
 */
function targetingCondition(
  config: SiteConfig,
  params: SearchParams,
  warnings: SearchWarning[],
): FilterCondition | null {
  if (params.targetingRules.length > 0) {
    const rules = andRules(config, 'targetingRules', params.targetingRules, warnings);
    return rules.length > 0 ? { all: rules } : null;
  }
  const conditional = params.conditionalRules;
  if (!conditional) return null;
  // Per condition: a document meeting it passes its rules; one meeting none of the conditions passes.
  const conditions = [...new Set([...conditional.and.keys(), ...conditional.or.keys()])];
  const branches: FilterCondition[] = conditions.map((condition) => {
    const parts = [ruleCondition(config, condition, warnings)];
    const and = conditional.and.get(condition);
    if (and) parts.push(...andRules(config, 'targetingRulesWithConditionAND', and, warnings));
    const or = conditional.or.get(condition);
    if (or) parts.push(orRules(config, or, warnings));
    return { all: parts };
  });
  branches.push({ none: conditions.map((condition) => ruleCondition(config, condition, [])) });
  return { any: branches };
}

/** Rules `field:value` by field (the original's AND method): a document passes one of a field's values or has none. */
function andRules(config: SiteConfig, param: string, rules: string[], warnings: SearchWarning[]): FilterCondition[] {
  const byField = new Map<string, string[]>();
  for (const rule of fieldValueRules(param, rules, warnings)) {
    const [name, value] = splitFq(rule);
    byField.set(name, [...(byField.get(name) ?? []), unquote(value)]);
  }
  const conditions: FilterCondition[] = [];
  for (const [name, values] of byField) {
    if (!ruleField(config, param, name, warnings)) continue; // nobody has the field: every document passes
    conditions.push({ filter: { field: name, values: [...new Set(values)], itemOp: 'OR', matchMissing: true } });
  }
  return conditions;
}

/** The original's OR method: a document passes one of the rules, or has none of their fields. */
function orRules(config: SiteConfig, rules: string[], warnings: SearchWarning[]): FilterCondition {
  const param = 'targetingRulesWithConditionOR';
  const valid = fieldValueRules(param, rules, warnings);
  const fields = new Set(valid.map((rule) => splitFq(rule)[0]));
  for (const name of fields) ruleField(config, param, name, warnings);
  return {
    any: [
      ...valid.map((rule): FilterCondition => {
        const [name, value] = splitFq(rule);
        return { filter: { field: name, values: [unquote(value)], itemOp: 'OR' } };
      }),
      { all: [...fields].map((name) => ({ filter: { field: name, values: [], itemOp: 'OR', matchMissing: true } })) },
    ],
  };
}

/** Whether a rule's field is one the site has (a facet, else 400); a warning for one it does not have. */
function ruleField(config: SiteConfig, param: string, name: string, warnings: SearchWarning[]): boolean {
  const field = knownField(config, name);
  if (!field) {
    warnings.push(
      unknownField(
        config,
        param,
        name,
        'no document has it, so the rule lets every document through (as in the original)',
      ),
    );
    return false;
  }
  if (!field.facet)
    throw httpErrors.invalidParameter(
      param,
      `names "${name}", which is not a facet field of site "${config.site.name}"`,
    );
  return true;
}

/** A condition of targetingRulesWithCondition*: `field:value` on a facet field; any other one no document meets. */
function ruleCondition(config: SiteConfig, condition: string, warnings: SearchWarning[]): FilterCondition {
  const colon = condition.indexOf(':');
  const field = colon > 0 ? knownField(config, condition.slice(0, colon)) : undefined;
  if (field?.facet && colon < condition.length - 1)
    return { filter: { field: field.name, values: [unquote(condition.slice(colon + 1))], itemOp: 'OR' } };
  warnings.push({
    code: 'rule_ignored',
    parameter: 'targetingRulesWithCondition',
    message: `condition ${JSON.stringify(condition)} is not field:value on a facet field of site "${config.site.name}": no document is taken as meeting it`,
  });
  return { any: [] };
}

/**
 * The filters left out when counting a facet: its own when its values are ORed (multi-select), and the OR part's
 * when facets are ORed and it is not narrowed by its own AND filter (its counts say what choosing a value adds).
 */
function ignoredFor(field: string, ops: FieldOperators, filtered: Set<string>, orFields: string[]): string[] {
  const own = ops.itemType === 'OR' ? [field] : [];
  if (ops.facetType === 'OR' && (ops.itemType === 'OR' || !filtered.has(field)))
    return [...new Set([...orFields, ...own])];
  return own;
}
