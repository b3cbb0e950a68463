import { encodeName, encodeParam, encodeValue } from './encoding.js';

/**
 * The query string of a search link, kept as an ordered list of decoded (name, value) pairs so a
 * link can be rebuilt with one change and every other parameter in its original place.
 */
export type Param = readonly [name: string, value: string];

export interface LinkBase {
  path: string;
  params: Param[];
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part; // a stray % is kept as written rather than failing the whole search
  }
}

/** `q=a+b&fq[]=type:News` → [['q','a b'],['fq[]','type:News']]; empty pieces are dropped. */
export function parseQueryString(query: string): Param[] {
  const params: Param[] = [];
  for (const piece of query.replace(/^\?/, '').split('&')) {
    if (!piece) continue;
    const eq = piece.indexOf('=');
    params.push(eq < 0 ? [decode(piece), ''] : [decode(piece.slice(0, eq)), decode(piece.slice(eq + 1))]);
  }
  return params;
}

export function linkBaseFromUrl(url: string, path?: string): LinkBase {
  const q = url.indexOf('?');
  return { path: path ?? (q < 0 ? url : url.slice(0, q)), params: q < 0 ? [] : parseQueryString(url.slice(q + 1)) };
}

/** Path plus the re-serialized parameters: links are path-only (no scheme or host). */
export function toLink(base: LinkBase): string {
  if (base.params.length === 0) return base.path;
  return `${base.path}?${base.params.map(([n, v]) => encodeParam(n, v)).join('&')}`;
}

/** Replace the first `name` in place (later duplicates stay), or append it at the end. */
export function replaceParam(base: LinkBase, name: string, value: string): LinkBase {
  const i = base.params.findIndex(([n]) => n === name);
  const params = base.params.slice();
  if (i < 0) params.push([name, value]);
  else params[i] = [name, value];
  return { path: base.path, params };
}

export function removeParam(base: LinkBase, name: string): LinkBase {
  return { path: base.path, params: base.params.filter(([n]) => n !== name) };
}

export const FQ = 'fq[]';

/** Every parameter name a filter query may come under (REST, the original's and its SDKs' spellings). */
export const FILTER_PARAMS: ReadonlySet<string> = new Set([
  'fq[]',
  'fq',
  'fq.and[]',
  'fq.and',
  'fqAnd[]',
  'fqAnd',
  'fq.or[]',
  'fq.or',
  'fqOr[]',
  'fqOr',
]);

/** Changing the filters starts over at page 1; `p` is reset where present, never added. */
function resetPage(params: Param[]): Param[] {
  return params.map((param) => (param[0] === 'p' ? (['p', '1'] as const) : param));
}

/** Add the filter `field:value` (unless the same fq[] is already there), back to page 1. */
export function addFq(base: LinkBase, fq: string): LinkBase {
  const params = resetPage(base.params);
  if (!params.some(([n, v]) => n === FQ && v === fq)) params.push([FQ, fq]);
  return { path: base.path, params };
}

/** What every `addFq(base, …)` link of one base shares: its encoded parameters (page reset) and its filters. */
interface FqLinkTemplate {
  prefix: string;
  separator: '?' | '&';
  present: ReadonlySet<string>;
}

// A page of results links every facet value of every document: tens to hundreds of links per search, all
// made from the same few bases. Encoding a base once per search instead of once per link took the links
// from about a tenth of a search's CPU to almost nothing (docs/BENCHMARKS.md).
const fqTemplates = new WeakMap<LinkBase, FqLinkTemplate>();

function fqTemplateOf(base: LinkBase): FqLinkTemplate {
  let template = fqTemplates.get(base);
  if (!template) {
    const params = resetPage(base.params);
    const prefix = toLink({ path: base.path, params });
    template = {
      prefix,
      separator: params.length === 0 ? '?' : '&',
      present: new Set(params.filter(([n]) => n === FQ).map(([, v]) => v)),
    };
    fqTemplates.set(base, template);
  }
  return template;
}

// Encoded once: encodeName's encodeURIComponent and two replaces were most of a link's cost in a profile.
const FQ_ENCODED = encodeName(FQ);

/** `toLink(addFq(base, fq))`, from a template of `base` made on its first use. */
export function addFqLink(base: LinkBase, fq: string): string {
  const { prefix, separator, present } = fqTemplateOf(base);
  return present.has(fq) ? prefix : `${prefix}${separator}${FQ_ENCODED}=${encodeValue(fq)}`;
}

/** Drop every filter equal to `fq` (whichever filter parameter carries it), back to page 1. */
export function removeFq(base: LinkBase, fq: string): LinkBase {
  return { path: base.path, params: resetPage(base.params.filter(([n, v]) => !(FILTER_PARAMS.has(n) && v === fq))) };
}

/** The field a filter query names: the text before its first colon (null when there is none). */
export function fqField(fq: string): string | null {
  const colon = fq.indexOf(':');
  return colon < 0 ? null : fq.slice(0, colon);
}

/** Drop the filters of these fields (and any filter without a field); the page is kept. */
export function removeFqByFields(base: LinkBase, fields: Iterable<string>): LinkBase {
  const drop = new Set(fields);
  return {
    path: base.path,
    params: base.params.filter(([n, v]) => {
      if (!FILTER_PARAMS.has(n)) return true;
      const field = fqField(v);
      return field !== null && !drop.has(field);
    }),
  };
}
