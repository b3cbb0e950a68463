import { checkTypedText, httpErrors, normalizeLocale } from 'vela/plugin';
import type { SemanticMode } from '../api.js';
import { FQ, type LinkBase, type Param, parseQueryString, toLink } from '../links/query-string.js';
import type { MetadataFormat, Operator } from '../store/site-types.js';
import { parseMetadataFormat } from './result-documents.js';
import type { SearchWarning } from './search-response.js';
import { parseSemanticMode } from './semantic.js';
import { parseSortOrder, type SortOrder } from './sort-order.js';

export const MAX_ROWS = 1000;
/** The original reads `p` as a Java int: a larger page is refused there too, and offsets stay exact. */
export const MAX_PAGE = 2_147_483_647;
/**
 * Bounds of what one search may ask for, the same for the query string as for the POST body's schema
 * (routes/search.ts): each filter link of an answer carries every other filter, so an unbounded list would
 * make the answer grow with its square.
 */
export const SEARCH_BOUNDS = {
  /** Items of each list: fq, fqAnd, fqOr, targeting rules, field names. */
  maxItems: 100,
  /** Characters of the query and of each filter or targeting rule. */
  maxText: 2000,
  /** Characters of a field name in fl, of group and of an operator. */
  maxName: 100,
  maxSort: 200,
  maxLocale: 16,
  /**
   * Characters of the search written as a link (its query string). Every link of an answer (pages, facet
   * values, each filter's removal) repeats it, so this bounds the answer where the per-item bounds do not:
   * 100 filters of 550 characters made a 6 MB answer of a 56 KB request. Common proxies refuse longer request
   * lines (8 KiB) anyway.
   */
  maxLink: 8192,
} as const;

/** One search request after GET parameters and the POST body are merged and checked. */
export interface SearchParams {
  q: string;
  /**
   * '' when the request names none: the search's plan settles it (the site's only or default locale,
   * queryContext.query.locale).
   */
  locale: string;
  page: number;
  /** null: the site's rowsPerPage (also for rows below 0); 0: counts and widgets only. */
  rows: number | null;
  /** As given ('relevance' when none or empty): echoed in queryContext.query.sort and in POST links. */
  sort: string;
  sortOrder: SortOrder;
  group: string | null;
  fq: string[];
  fqAnd: string[];
  fqOr: string[];
  fqOperator: Operator | null;
  fqItemOperator: Operator | null;
  fieldList: string[] | null;
  /** `field:value` rules; items without a colon are left out (with a warning), as the original leaves them out. */
  targetingRules: string[];
  /** The POST body's targetingRulesWithCondition maps: used only when targetingRules is empty, as in the original. */
  conditionalRules: ConditionalRules | null;
  userId: string | null;
  populateMetrics: boolean;
  disableAutoComplete: boolean;
  /**
   * Search the spell-corrected text when the query finds nothing (false with nfpr=1, as the link back to the original
   * sets).
   */
  autoCorrect: boolean;
  /** keyword (default), hybrid or vector: see query/semantic.ts. */
  semantic: SemanticMode;
  /** false: matched terms are not marked, whatever the site's hl (the list search answers plain values). */
  highlight?: boolean;
  /** The form of results' metadata (grouped or flat); null: the site's metadataFormat. */
  metadata: MetadataFormat | null;
  /** The link every pre-built link of the response is derived from. */
  linkBase: LinkBase;
  /** What reading the request ignored or changed (queryContext.warnings, with the plan's). */
  warnings: SearchWarning[];
}

/**
 * Targeting rules by condition: each condition (`field:value`) with the rules a document meeting it must pass,
 * AND rules (targetingRulesWithCondition and ...AND) and OR rules (...OR).
 */
export interface ConditionalRules {
  and: Map<string, string[]>;
  or: Map<string, string[]>;
}

type Raw = Map<string, string[]>;

function collect(params: Param[]): Raw {
  const raw: Raw = new Map();
  for (const [name, value] of params) {
    const list = raw.get(name);
    if (list) list.push(value);
    else raw.set(name, [value]);
  }
  return raw;
}

/** The first present of several accepted spellings (the original's and its SDKs'). */
function first(raw: Raw, ...names: string[]): string | undefined {
  return given(raw, ...names)?.value;
}

/** The first present of several spellings, with the spelling the client used (errors name it as sent). */
function given(raw: Raw, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const values = raw.get(name);
    if (values && values.length > 0) return { name, value: values[0]! };
  }
  return undefined;
}

function all(raw: Raw, ...names: string[]): string[] {
  return names.flatMap((name) => raw.get(name) ?? []);
}

function fieldListOf(raw: Raw): string[] | null {
  const names = all(raw, 'fl[]', 'fl')
    .flatMap((f) => f.split(','))
    .map((f) => f.trim())
    .filter(Boolean);
  return names.length > 0 ? boundedList('fl', names, SEARCH_BOUNDS.maxName) : null;
}

/**
 * A page below 1 is page 1, with a warning: the original reads any Java int and does not refuse one below 1. A value
 * that is not a whole number, or past an int, is refused there too.
 */
function parsePage(
  name: string,
  value: string | number | undefined | null,
  warnings: SearchWarning[],
): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < -MAX_PAGE - 1 || n > MAX_PAGE)
    throw httpErrors.invalidParameter(
      name,
      `must be a whole number from 1 to ${MAX_PAGE}, got ${JSON.stringify(value)}`,
    );
  if (n >= 1) return n;
  warnings.push({
    code: 'page_changed',
    parameter: name,
    message: `${name} must be 1 or more, got ${JSON.stringify(value)}: page 1 is answered`,
  });
  return 1;
}

/** rows: a whole number; below 0 means the site's rowsPerPage (as in the original), 0 counts and widgets only. */
function parseRows(value: string | number | undefined | null): number | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n))
    throw httpErrors.invalidParameter('rows', `must be a whole number, got ${JSON.stringify(value)}`);
  return n < 0 ? null : Math.min(n, MAX_ROWS);
}

/** AND or OR; empty, NONE and DEFAULT leave the choice to the field and the site. undefined: not one of these. */
function operatorOf(value: string): Operator | null | undefined {
  const upper = value.trim().toUpperCase();
  if (upper === '' || upper === 'NONE' || upper === 'DEFAULT') return null;
  return upper === 'AND' || upper === 'OR' ? upper : undefined;
}

/** A query-string operator (fq.op, fqi.op and their spellings): refused naming the parameter as sent. */
function queryOperator(found: { name: string; value: string } | undefined): Operator | null {
  if (!found) return null;
  const operator = operatorOf(bounded(found.name, found.value, SEARCH_BOUNDS.maxName));
  if (operator === undefined)
    throw httpErrors.invalidParameter(
      found.name,
      `must be AND, OR, NONE or DEFAULT (NONE, DEFAULT and empty leave it to the field, else the site), got ${JSON.stringify(found.value)}`,
    );
  return operator;
}

/**
 * The POST body's fqOperator and fqItemOperator: the spec lists them, so AND and OR are honoured; the
 * original never reads them, so clients of it may send anything, and any other value leaves the query
 * string's operator in force instead of refusing the search.
 */
function bodyOperator(value: string | null | undefined): Operator | undefined {
  return (typeof value === 'string' && operatorOf(value)) || undefined;
}

/** A single value past `max` characters: refused naming the parameter, with its length rather than the value. */
function bounded<T extends string | null | undefined>(name: string, value: T, max: number): T {
  if (typeof value === 'string' && value.length > max)
    throw httpErrors.invalidParameter(name, `must be at most ${max} characters long, got ${value.length} characters`);
  return value;
}

/** A list past `maxItems` items, or with an item past `maxLength` characters: refused naming the parameter. */
function boundedList(name: string, values: string[], maxLength: number): string[] {
  if (values.length > SEARCH_BOUNDS.maxItems)
    throw httpErrors.invalidParameter(name, `takes at most ${SEARCH_BOUNDS.maxItems} values, got ${values.length}`);
  for (const value of values) bounded(name, value, maxLength);
  return values;
}

const boundedNames = (names: string[] | undefined) =>
  names ? boundedList('fieldList', names, SEARCH_BOUNDS.maxName) : undefined;

function checkFilters(name: string, values: string[]): string[] {
  boundedList(name, values, SEARCH_BOUNDS.maxText);
  for (const value of values) {
    const colon = value.indexOf(':');
    if (colon <= 0 || colon === value.length - 1)
      throw httpErrors.invalidParameter(name, `must be field:value, got ${JSON.stringify(value)}`);
  }
  return values;
}

/** Targeting rules: an item without `field:value` is left out with a warning (the original leaves it out). */
function targetingRulesOf(name: string, values: string[], warnings: SearchWarning[]): string[] {
  return fieldValueRules(name, boundedList(name, values, SEARCH_BOUNDS.maxText), warnings);
}

/** The rules that are `field:value`; each other one is left out with a warning, as the original leaves it out. */
export function fieldValueRules(name: string, values: string[], warnings: SearchWarning[]): string[] {
  return values.filter((value) => {
    const colon = value.indexOf(':');
    if (colon > 0 && colon < value.length - 1) return true;
    warnings.push({
      code: 'rule_ignored',
      parameter: name,
      message: `${name} item ${JSON.stringify(value)} is not field:value, so it filters nothing (as in the original)`,
    });
    return false;
  });
}

/** A map of conditions to rule lists, as the original's targetingRulesWithCondition members are. */
function ruleMap(value: unknown, name: string): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  if (value === undefined || value === null) return rules;
  if (typeof value !== 'object' || Array.isArray(value))
    throw httpErrors.invalidParameter(name, 'must be an object of conditions to arrays of field:value rules');
  const entries = Object.entries(value);
  if (entries.length > SEARCH_BOUNDS.maxItems)
    throw httpErrors.invalidParameter(
      name,
      `takes at most ${SEARCH_BOUNDS.maxItems} conditions, got ${entries.length}`,
    );
  for (const [condition, list] of entries) {
    bounded(name, condition, SEARCH_BOUNDS.maxText);
    if (!Array.isArray(list) || list.some((rule) => typeof rule !== 'string'))
      throw httpErrors.invalidParameter(name, `${JSON.stringify(condition)} must map to an array of field:value rules`);
    rules.set(condition, boundedList(name, list as string[], SEARCH_BOUNDS.maxText));
  }
  return rules;
}

/** The with-condition maps, null when all are empty; the first two both hold AND rules, as in the original. */
function conditionalRulesOf(body: PostBody): ConditionalRules | null {
  const and = ruleMap(body.targetingRulesWithCondition, 'targetingRulesWithCondition');
  for (const [condition, rules] of ruleMap(body.targetingRulesWithConditionAND, 'targetingRulesWithConditionAND'))
    and.set(condition, [...(and.get(condition) ?? []), ...rules]);
  const or = ruleMap(body.targetingRulesWithConditionOR, 'targetingRulesWithConditionOR');
  return and.size + or.size > 0 ? { and, or } : null;
}

function list(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw httpErrors.invalidParameter(name, 'must be an array of strings');
  return value as string[];
}

export interface PostBody {
  userId?: string | null;
  query?: string | null;
  locale?: string | null;
  page?: number | null;
  rows?: number | null;
  sort?: string | null;
  group?: string | null;
  fq?: string[] | null;
  fqAnd?: string[] | null;
  fqOr?: string[] | null;
  fqOperator?: string | null;
  fqItemOperator?: string | null;
  fieldList?: string[] | null;
  disableAutoComplete?: boolean | null;
  populateMetrics?: boolean | null;
  targetingRules?: string[] | null;
  targetingRulesWithCondition?: Record<string, string[]> | null;
  targetingRulesWithConditionAND?: Record<string, string[]> | null;
  targetingRulesWithConditionOR?: Record<string, string[]> | null;
  semantic?: string | null;
  metadata?: string | null;
}

/**
 * Merge the query string (GET, or the query part of a POST) with a POST body, whose non-null
 * members win. `path` is the request path the links are built on.
 */
export function parseSearchParams(path: string, rawQuery: string, body: PostBody | null = null): SearchParams {
  const queryParams = parseQueryString(rawQuery);
  const raw = collect(queryParams);
  const b = body ?? {};

  const q = b.query ?? first(raw, 'q');
  if (q === undefined || q === null)
    throw httpErrors.missingParameter('q', 'give the text to search for, or * for every document');
  const qName = typeof b.query === 'string' ? 'query' : 'q';
  checkTypedText(qName, bounded(qName, q, SEARCH_BOUNDS.maxText));
  // Left out: the site's only or default locale (query/plan.ts).
  const localeRaw = bounded(
    '_setlocale',
    b.locale ?? first(raw, '_setlocale', 'locale') ?? '',
    SEARCH_BOUNDS.maxLocale,
  );
  const warnings: SearchWarning[] = [];
  const page = parsePage(typeof b.page === 'number' ? 'page' : 'p', b.page ?? first(raw, 'p'), warnings) ?? 1;
  const rowsRequested = parseRows(b.rows ?? first(raw, 'rows'));
  const sort = bounded('sort', b.sort ?? first(raw, 'sort') ?? '', SEARCH_BOUNDS.maxSort).trim() || 'relevance';
  const nfpr = first(raw, 'nfpr');
  const noCorrection = first(raw, 'autoCorrectionDisabled');

  const params: SearchParams = {
    q: q.trim() === '' ? '*' : q,
    locale: normalizeLocale(localeRaw),
    page,
    rows: rowsRequested ?? null,
    sort,
    sortOrder: parseSortOrder(sort),
    group: bounded('group', b.group ?? first(raw, 'group'), SEARCH_BOUNDS.maxName) || null,
    fq: checkFilters('fq[]', list(b.fq, 'fq') ?? all(raw, FQ, 'fq')),
    fqAnd: checkFilters('fqAnd', list(b.fqAnd, 'fqAnd') ?? all(raw, 'fq.and[]', 'fqAnd[]', 'fqAnd', 'fq.and')),
    fqOr: checkFilters('fqOr', list(b.fqOr, 'fqOr') ?? all(raw, 'fq.or[]', 'fqOr[]', 'fqOr', 'fq.or')),
    fqOperator: bodyOperator(b.fqOperator) ?? queryOperator(given(raw, 'fq.op', 'fqOp', 'fqOperator')),
    fqItemOperator: bodyOperator(b.fqItemOperator) ?? queryOperator(given(raw, 'fqi.op', 'fqiOp', 'fqItemOperator')),
    fieldList: boundedNames(list(b.fieldList, 'fieldList')) ?? fieldListOf(raw),
    targetingRules: targetingRulesOf(
      'targetingRules',
      list(b.targetingRules, 'targetingRules') ?? all(raw, 'tr[]', 'tr'),
      warnings,
    ),
    conditionalRules: null,
    userId: b.userId ?? null,
    populateMetrics: b.populateMetrics ?? true,
    disableAutoComplete: b.disableAutoComplete ?? false,
    autoCorrect: nfpr?.trim() !== '1' && noCorrection?.trim() !== '1' && noCorrection?.trim().toLowerCase() !== 'true',
    semantic: parseSemanticMode('semantic', b.semantic ?? first(raw, 'semantic')),
    metadata: parseMetadataFormat(b.metadata ?? first(raw, 'metadata')),
    linkBase: { path, params: queryParams },
    warnings,
  };
  if (params.targetingRules.length === 0) params.conditionalRules = conditionalRulesOf(b);
  if (body) params.linkBase = linkBaseFor(path, params);
  const link = toLink({ path: '', params: params.linkBase.params }).length - 1;
  if (link > SEARCH_BOUNDS.maxLink)
    throw httpErrors.invalidParameter(
      "the search's parameters",
      `are ${link} characters long written as a link (every link of the answer repeats them); at most ${SEARCH_BOUNDS.maxLink} are taken: use fewer or shorter filters`,
    );
  return params;
}

/**
 * For a POST the body's members are not in the URL; links are built from the effective request
 * so that following one as a GET gives the same search.
 */
function linkBaseFor(path: string, p: SearchParams): LinkBase {
  const out: Param[] = [['q', p.q]];
  if (p.locale !== '') out.push(['_setlocale', p.locale]);
  out.push(['p', String(p.page)]);
  if (p.rows !== null) out.push(['rows', String(p.rows)]);
  if (p.sort !== 'relevance') out.push(['sort', p.sort]);
  if (p.group) out.push(['group', p.group]);
  if (p.fqOperator) out.push(['fq.op', p.fqOperator]);
  if (p.fqItemOperator) out.push(['fqi.op', p.fqItemOperator]);
  for (const fq of p.fq) out.push([FQ, fq]);
  for (const fq of p.fqAnd) out.push(['fq.and[]', fq]);
  for (const fq of p.fqOr) out.push(['fq.or[]', fq]);
  for (const tr of p.targetingRules) out.push(['tr[]', tr]);
  if (p.fieldList) out.push(['fl', p.fieldList.join(',')]);
  if (!p.autoCorrect) out.push(['nfpr', '1']);
  if (p.semantic !== 'keyword') out.push(['semantic', p.semantic]);
  if (p.metadata) out.push(['metadata', p.metadata]);
  return { path, params: out };
}
