import { ownValue, setOwn, type TextField } from '@vela/search-text';
import type { EngineSchema, IndexableDocument } from '../engine/search-engine.js';
import type { Field, SiteConfig } from '../store/site-types.js';
import { phrasesOf } from '../suggest/phrases.js';
import { stopWordsOf } from '../suggest/stop-words.js';

export type Attributes = Record<string, unknown>;

const NUMERIC = new Set(['INT', 'LONG', 'FLOAT', 'DATE']);
/** Attributes that identify rather than describe: kept out of the searchable text. */
const NOT_TEXT = new Set(['id', 'image', 'url', 'source_apps']);
/** The relevance weight of an attribute the site has no field for (a field's default boost). */
const DEFAULT_BOOST = 1;

/** Which columns an engine of this site keeps: facets, numbers and string sort keys. */
export function engineSchemaFor(config: SiteConfig): EngineSchema {
  const enabled = config.fields.filter((f) => f.enabled);
  const title = config.site.defaultTitleField;
  return {
    facetFields: enabled
      .filter((f) => f.facet)
      .map((f) => f.name)
      .sort(),
    numberFields: enabled
      .filter((f) => NUMERIC.has(f.type))
      .map((f) => f.name)
      .sort(),
    stringFields: enabled
      .filter((f) => !f.multiValued && (f.type === 'STRING' || f.name === title))
      .map((f) => f.name)
      .sort(),
  };
}

function values(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value.filter((v) => v !== null && v !== undefined) : [value];
}

/** `values(value)[0]` without the array. */
function firstValue(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? undefined;
  for (const v of value) if (v !== null && v !== undefined) return v;
  return undefined;
}

/** The text a facet or a metadata link shows for a value: dates as ISO instants without milliseconds. */
export function valueText(value: unknown, field: Field | undefined): string {
  if (field?.type === 'DATE') {
    const time = toNumber(value, field);
    if (time !== null) return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * The furthest instant a JavaScript Date holds (±100,000,000 days from 1970): later ones cannot be written as ISO text.
 */
const MAX_TIME = 8.64e15;

export function toNumber(value: unknown, field: Field | undefined): number | null {
  if (field?.type === 'DATE') {
    let time = NaN;
    if (typeof value === 'number') time = value;
    else if (typeof value === 'string' && value.trim() !== '')
      time = /^-?\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
    return Number.isFinite(time) && Math.abs(time) <= MAX_TIME ? time : null;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * What the engine indexes of a stored document, under the site's current field settings. With `locale`, the
 * phrases autocomplete offers come from the site's title field (defaultTitleField), with that locale's stop words.
 */
export function toIndexable(
  id: string,
  attributes: Attributes,
  config: SiteConfig,
  schema: EngineSchema,
  locale?: string,
): IndexableDocument {
  const text: string[] = [];
  // Relevance weighs each field by its boost and normalises it by its length (BM25F, with the site's b).
  const fields: TextField[] = [];
  const b = config.site.bm25B;
  // Every stored document passes here on its way into the index: no array per value (as `values` makes).
  for (const name of Object.keys(attributes)) {
    if (NOT_TEXT.has(name)) continue;
    const field = config.fieldsByName.get(name);
    if (field && (!field.enabled || NUMERIC.has(field.type) || field.type === 'BOOL')) continue;
    const value = attributes[name];
    const from = text.length;
    if (typeof value === 'string') text.push(value);
    else if (typeof value === 'number') text.push(String(value));
    else if (Array.isArray(value))
      for (const v of value) if (typeof v === 'string' || typeof v === 'number') text.push(String(v));
    if (text.length > from)
      fields.push({ name, text: text.slice(from).join('\n'), boost: field?.boost ?? DEFAULT_BOOST, b });
  }
  const facets: Record<string, string[]> = {};
  for (const name of schema.facetFields) {
    const field = config.fieldsByName.get(name);
    // An empty value is no value: a filter cannot name it (fq[]=type: is refused).
    const list = values(ownValue(attributes, name))
      .map((v) => valueText(v, field))
      .filter((text) => text !== '');
    if (list.length > 0) setOwn(facets, name, field?.multiValued ? [...new Set(list)] : [list[0]!]);
  }
  const numbers: Record<string, number | null> = {};
  for (const name of schema.numberFields)
    setOwn(numbers, name, toNumber(firstValue(ownValue(attributes, name)), config.fieldsByName.get(name)));
  const strings: Record<string, string | null> = {};
  for (const name of schema.stringFields) {
    const first = firstValue(ownValue(attributes, name));
    setOwn(strings, name, first === undefined ? null : String(first));
  }
  const indexable: IndexableDocument = { id, text: text.join('\n'), fields, facets, numbers, strings };
  const titleField = config.site.defaultTitleField;
  if (locale !== undefined && titleField !== null && config.fieldsByName.get(titleField)?.enabled !== false) {
    const title = values(ownValue(attributes, titleField)).filter((v) => typeof v === 'string');
    if (title.length > 0) indexable.phrases = phrasesOf(title.join('\n'), stopWordsOf(locale));
  }
  return indexable;
}
