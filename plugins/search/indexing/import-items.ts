import { normalizeLocale } from 'vela/plugin';
import type { ImportItem, ImportRejection } from '../api.js';
import { type Attributes, toNumber } from '../query/indexable.js';
import type { SiteStore } from '../store/site-store.js';
import type { Field, SiteConfig } from '../store/site-types.js';

export interface AcceptedChange {
  siteId: string;
  locale: string;
  action: 'CREATE' | 'DELETE';
  docId: string | null;
  /** DELETE without an id removes every document of this type. */
  docType: string | null;
  attributes: Attributes | null;
}

export interface CheckedBatch {
  changes: AcceptedChange[];
  rejected: ImportRejection[];
  /** Items accepted (a document sent to two sites counts once). */
  accepted: number;
  commits: number;
  /** Fields to create before the batch is stored, from the items' specs, per site id. */
  specs: Map<string, Array<Record<string, unknown>>>;
}

const ACTIONS = new Set(['CREATE', 'DELETE', 'COMMIT']);
const MAX_ID_LENGTH = 400;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A value as a reason quotes it: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function idOf(attributes: Attributes): string | null {
  const id = attributes.id;
  if (typeof id === 'string' && id.trim() !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return null;
}

/** Check typed attributes against the site's fields; returns the first problem or null. */
function typeProblem(attributes: Attributes, config: SiteConfig): string | null {
  // Keys rather than entries: no [name, value] pair per attribute of every document of a batch.
  for (const name of Object.keys(attributes)) {
    const field = config.fieldsByName.get(name);
    const value = attributes[name];
    // Text needs no check; skipping it first keeps a batch's check off the import profile.
    if (!field || value === null || value === undefined || field.type === 'STRING' || field.type === 'TEXT') continue;
    const problem = fieldProblem(name, value, field);
    if (problem) return problem;
  }
  return null;
}

function fieldProblem(name: string, value: unknown, field: Field): string | null {
  const list = Array.isArray(value) ? value : [value];
  if (
    Array.isArray(value) &&
    !field.multiValued &&
    ['INT', 'LONG', 'FLOAT', 'DATE', 'BOOL'].includes(field.type) &&
    value.length > 1
  ) {
    return `attribute "${name}" is a single ${field.type} but got ${value.length} values`;
  }
  for (const v of list) {
    if (field.type === 'BOOL' && typeof v !== 'boolean' && v !== 'true' && v !== 'false')
      return `attribute "${name}" must be a boolean, got ${JSON.stringify(v)}`;
    if ((field.type === 'INT' || field.type === 'LONG') && !Number.isInteger(toNumber(v, field)))
      return `attribute "${name}" must be an integer, got ${JSON.stringify(v)}`;
    if (field.type === 'FLOAT' && toNumber(v, field) === null)
      return `attribute "${name}" must be a number, got ${JSON.stringify(v)}`;
    if (field.type === 'DATE' && toNumber(v, field) === null)
      return `attribute "${name}" must be a date (ISO 8601 or epoch milliseconds), got ${JSON.stringify(v)}`;
  }
  return null;
}

/**
 * What the items of one batch share, looked up once: a batch's items nearly all name the same locale and
 * sites (the import profile had the locale's pattern, its normalisation and the site lookup per item).
 */
class BatchLookups {
  private readonly locales = new Map<string, string | null>();
  private readonly configs = new Map<string, SiteConfig | undefined>();

  constructor(private readonly sites: SiteStore) {}

  /** The locale normalised, or null when it is not a code like en_US. */
  locale(given: string): string | null {
    let locale = this.locales.get(given);
    if (locale === undefined) {
      locale = LOCALE.test(given) ? normalizeLocale(given) : null;
      this.locales.set(given, locale);
    }
    return locale;
  }

  site(name: string): SiteConfig | undefined {
    if (this.configs.has(name)) return this.configs.get(name);
    const config = this.sites.find(name);
    this.configs.set(name, config);
    return config;
  }
}

const LOCALE = /^[a-zA-Z]{2,3}[-_][a-zA-Z]{2}$/;

/**
 * Record an item's rejection; false, for the caller to return. A function, not a closure per item: under tsx each
 * closure is also named when made (esbuild's keepNames), which showed in the import profile.
 */
function rejectItem(
  batch: CheckedBatch,
  index: number,
  id: string | null,
  reason: string,
  site: string | null = null,
): false {
  batch.rejected.push({ index, id, site, reason });
  return false;
}

/**
 * Check every item of an import batch on its own: a bad item (or a bad site of an item) is rejected
 * with its reason and the rest of the batch goes on.
 */
export function checkImportItems(items: readonly ImportItem[], sites: SiteStore, forceAction?: 'DELETE'): CheckedBatch {
  const batch: CheckedBatch = { changes: [], rejected: [], accepted: 0, commits: 0, specs: new Map() };
  const lookups = new BatchLookups(sites);
  for (let index = 0; index < items.length; index++)
    if (checkItem(items[index]!, index, batch, lookups, forceAction)) batch.accepted += 1;
  return batch;
}

/**
 * One item: its changes (one per site it names) go into the batch, its rejections with their reasons;
 * true when it was accepted for at least one site.
 */
function checkItem(
  item: ImportItem,
  index: number,
  batch: CheckedBatch,
  lookups: BatchLookups,
  forceAction: 'DELETE' | undefined,
): boolean {
  const attributes = (
    item.attributes && typeof item.attributes === 'object' && !Array.isArray(item.attributes) ? item.attributes : {}
  ) as Attributes;
  const id = idOf(attributes);
  const given = item.turSNJobAction;
  const action =
    forceAction ??
    (given === undefined || given === null
      ? 'CREATE'
      : typeof given === 'string'
        ? given.toUpperCase()
        : String(given));
  if (!ACTIONS.has(action))
    return rejectItem(
      batch,
      index,
      id,
      `turSNJobAction must be CREATE, DELETE or COMMIT, got ${JSON.stringify(item.turSNJobAction)}`,
    );
  if (
    item.attributes !== undefined &&
    item.attributes !== null &&
    (typeof item.attributes !== 'object' || Array.isArray(item.attributes))
  ) {
    return rejectItem(
      batch,
      index,
      id,
      `attributes must be an object of attribute values, got ${shown(item.attributes)}`,
    );
  }
  if (action === 'COMMIT') {
    batch.commits += 1;
    return false;
  }
  const locale = typeof item.locale === 'string' ? lookups.locale(item.locale) : null;
  if (locale === null)
    return rejectItem(batch, index, id, `locale must be a code like en_US, got ${JSON.stringify(item.locale)}`);
  if (
    !Array.isArray(item.siteNames) ||
    item.siteNames.length === 0 ||
    item.siteNames.some((s) => typeof s !== 'string')
  ) {
    return rejectItem(batch, index, id, 'siteNames must be a non-empty array of site names');
  }
  if (id !== null && id.length > MAX_ID_LENGTH)
    return rejectItem(batch, index, id, `attribute "id" is longer than ${MAX_ID_LENGTH} characters`);
  const type = typeof attributes.type === 'string' ? attributes.type : null;
  // Ids and types are stored as they are (PostgreSQL cannot hold NUL); other attributes are stored as JSON, escaped.
  if (id !== null && CONTROL.test(id))
    return rejectItem(batch, index, id, 'attribute "id" must not contain control characters');
  if (type !== null && CONTROL.test(type))
    return rejectItem(batch, index, id, 'attribute "type" must not contain control characters');
  if (id === null && attributes.id !== undefined && attributes.id !== null && attributes.id !== '') {
    return rejectItem(
      batch,
      index,
      id,
      `attribute "id" must be a non-empty string or a number, got ${shown(attributes.id)}`,
    );
  }
  if (action === 'CREATE' && id === null)
    return rejectItem(batch, index, id, 'attribute "id" is required to create a document');
  if (action === 'DELETE' && id === null && type === null)
    return rejectItem(
      batch,
      index,
      id,
      'attribute "id" (or "type", to delete every document of a type) is required to delete',
    );
  let acceptedHere = false;
  for (const siteName of item.siteNames as string[]) {
    const config = lookups.site(siteName);
    if (!config) {
      rejectItem(batch, index, id, `site "${siteName}" does not exist`, siteName);
      continue;
    }
    if (!config.site.locales.includes(locale)) {
      rejectItem(
        batch,
        index,
        id,
        `site "${siteName}" has no locale ${locale} (it has: ${config.site.locales.join(', ')})`,
        siteName,
      );
      continue;
    }
    if (action === 'CREATE') {
      const problem = typeProblem(attributes, config);
      if (problem) {
        rejectItem(batch, index, id, problem, siteName);
        continue;
      }
      if (Array.isArray(item.specs)) {
        const specs = item.specs.filter(
          (s): s is Record<string, unknown> =>
            !!s && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string',
        );
        if (specs.length > 0) batch.specs.set(config.site.id, [...(batch.specs.get(config.site.id) ?? []), ...specs]);
      }
    }
    batch.changes.push({
      siteId: config.site.id,
      locale,
      action: action as 'CREATE' | 'DELETE',
      docId: id,
      docType: action === 'DELETE' && id === null ? type : null,
      attributes: action === 'CREATE' ? attributes : null,
    });
    acceptedHere = true;
  }
  return acceptedHere;
}

/** An item's `specs` entry (the original's attribute spec) as a field to create. */
export function specToField(spec: Record<string, unknown>): Record<string, unknown> {
  const type =
    typeof spec.type === 'string' &&
    ['STRING', 'TEXT', 'INT', 'LONG', 'FLOAT', 'DATE', 'BOOL'].includes(spec.type.toUpperCase())
      ? spec.type.toUpperCase()
      : 'STRING';
  const facetName =
    spec.facetName && typeof spec.facetName === 'object' ? (spec.facetName as Record<string, string>) : {};
  const labels = Object.fromEntries(
    Object.entries(facetName).filter(
      ([k, v]) => k !== 'default' && /^[a-z]{2,3}_[A-Z]{2}$/.test(k) && typeof v === 'string',
    ),
  );
  return {
    name: spec.name,
    type,
    description: typeof spec.description === 'string' ? spec.description : '',
    multiValued: spec.multiValued === true,
    facet: spec.facet === true,
    required: spec.mandatory === true,
    facetName: typeof facetName.default === 'string' ? facetName.default : null,
    facetLabels: labels,
  };
}
