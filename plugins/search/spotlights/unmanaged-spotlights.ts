import { normalizeLocale } from 'vela/plugin';
import type { ImportItem, ImportRejection } from '../api.js';
import type { SiteStore } from '../store/site-store.js';
import { DEFAULT_PROVIDER, type SpotlightInput, type SpotlightStore } from './spotlight-store.js';

/** The attribute `type` that makes an import item a spotlight (the original's unmanaged spotlights). */
export const SPOTLIGHT_TYPE = 'TUR_SPOTLIGHT';
const MAX_TERMS = 100;
const MAX_DOCUMENTS = 100;

export function isSpotlightItem(item: ImportItem): boolean {
  const attributes = item?.attributes as Record<string, unknown> | null | undefined;
  return (
    !!attributes && typeof attributes === 'object' && !Array.isArray(attributes) && attributes.type === SPOTLIGHT_TYPE
  );
}

/** Text within `max` characters; NUL is refused, as PostgreSQL cannot store it. */
const text = (value: unknown, max: number): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.length <= max && !value.includes('\u0000') ? value : null;
};

/** `terms`: a comma-separated string as the original sends it, or a list of strings. */
function termsOf(value: unknown): string[] | string {
  const list =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((t) => typeof t === 'string')
        ? (value as string[])
        : null;
  if (!list) return 'attribute "terms" must be a comma-separated string of terms';
  const terms = list.map((t) => t.trim()).filter((t) => t !== '');
  if (terms.length === 0) return 'attribute "terms" must name at least one term';
  if (terms.length > MAX_TERMS || terms.some((t) => t.length > 255))
    return `attribute "terms" takes at most ${MAX_TERMS} terms of at most 255 characters`;
  return terms;
}

/** `content`: a JSON string (or the list itself) of {position, title, content, link, type}. */
function documentsOf(value: unknown): NonNullable<SpotlightInput['documents']> | string {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return 'attribute "content" must be JSON: a list of {position, title, content, link, type}';
    }
  }
  if (!Array.isArray(list) || list.length > MAX_DOCUMENTS)
    return `attribute "content" must be a list of at most ${MAX_DOCUMENTS} {position, title, content, link, type}`;
  const out: NonNullable<SpotlightInput['documents']> = [];
  for (const [i, entry] of list.entries()) {
    const d = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
    const position = typeof d.position === 'string' ? Number(d.position) : d.position;
    if (!Number.isInteger(position) || (position as number) < 1 || (position as number) > 100000)
      return `attribute "content"[${i}].position must be a whole number from 1 to 100000`;
    const title = d.title == null ? '' : text(d.title, 500);
    const content = d.content == null ? '' : text(d.content, 2000);
    const link = d.link == null ? null : text(d.link, 2000);
    const type = d.type == null ? 'Page' : text(d.type, 100);
    const referenceId = d.referenceId == null ? null : text(d.referenceId, 400);
    if (
      title === null ||
      content === null ||
      type === null ||
      (d.link != null && link === null) ||
      (d.referenceId != null && referenceId === null)
    )
      return `attribute "content"[${i}] has a member that is not text or is too long (title 500, content 2000, link 2000, type 100 characters)`;
    out.push({ position: position as number, title, content, link, type, referenceId });
  }
  return out;
}

export interface SpotlightItemsResult {
  accepted: number;
  rejected: ImportRejection[];
}

/**
 * Import items of type TUR_SPOTLIGHT (reference 5.4): CREATE makes or replaces the unmanaged spotlight with
 * that `id` in each site and locale (`name`, `terms`, `content`, `source_apps` as provider,
 * `modification_date`); DELETE removes it by `id`, or without an id every unmanaged spotlight of the
 * provider `source_apps`. They are not documents: they never reach the document store or the index.
 */
export async function applySpotlightItems(
  entries: ReadonlyArray<{ index: number; item: ImportItem }>,
  sites: SiteStore,
  store: SpotlightStore,
  forceAction?: 'DELETE',
): Promise<SpotlightItemsResult> {
  const result: SpotlightItemsResult = { accepted: 0, rejected: [] };
  for (const { index, item } of entries) {
    const attributes = item.attributes as Record<string, unknown>;
    const id = text(attributes.id, 400);
    const reject = (reason: string, site: string | null = null) => result.rejected.push({ index, id, site, reason });
    const given = item.turSNJobAction;
    const action = forceAction ?? (given == null ? 'CREATE' : String(given).toUpperCase());
    if (action !== 'CREATE' && action !== 'DELETE') {
      reject(`turSNJobAction must be CREATE or DELETE for a ${SPOTLIGHT_TYPE} item, got ${JSON.stringify(given)}`);
      continue;
    }
    if (typeof item.locale !== 'string' || !/^[a-zA-Z]{2,3}[-_][a-zA-Z]{2}$/.test(item.locale)) {
      reject(`locale must be a code like en_US, got ${JSON.stringify(item.locale)}`);
      continue;
    }
    const locale = normalizeLocale(item.locale);
    if (
      !Array.isArray(item.siteNames) ||
      item.siteNames.length === 0 ||
      item.siteNames.some((s) => typeof s !== 'string')
    ) {
      reject('siteNames must be a non-empty array of site names');
      continue;
    }
    const sourceApps = Array.isArray(attributes.source_apps) ? attributes.source_apps[0] : attributes.source_apps;
    const provider = sourceApps == null ? null : text(sourceApps, 100);
    if (sourceApps != null && provider === null) {
      reject('attribute "source_apps" (the provider) must be text of at most 100 characters');
      continue;
    }
    let create: (SpotlightInput & { name: string; unmanagedId: string }) | null = null;
    if (action === 'CREATE') {
      const name = text(attributes.name, 100);
      const terms = termsOf(attributes.terms);
      const documents = documentsOf(attributes.content ?? '[]');
      const modification = attributes.modification_date == null ? null : text(attributes.modification_date, 40);
      const problem =
        id === null
          ? `attribute "id" is required to create a ${SPOTLIGHT_TYPE}`
          : name === null || name.trim() === ''
            ? 'attribute "name" is required: text of at most 100 characters'
            : typeof terms === 'string'
              ? terms
              : typeof documents === 'string'
                ? documents
                : attributes.modification_date != null &&
                    (modification === null || Number.isNaN(Date.parse(modification)))
                  ? 'attribute "modification_date" must be a date-time'
                  : null;
      if (problem) {
        reject(problem);
        continue;
      }
      create = {
        name: name!,
        unmanagedId: id!,
        terms: terms as string[],
        documents: documents as NonNullable<SpotlightInput['documents']>,
        provider: provider ?? DEFAULT_PROVIDER,
        modificationDate: modification,
      };
    } else if (id === null && provider === null) {
      reject(
        `attribute "id" (or "source_apps", to delete every spotlight of a provider) is required to delete a ${SPOTLIGHT_TYPE}`,
      );
      continue;
    }
    let acceptedHere = false;
    for (const siteName of item.siteNames as string[]) {
      const config = sites.find(siteName);
      if (!config) {
        reject(`site "${siteName}" does not exist`, siteName);
        continue;
      }
      if (!config.site.locales.includes(locale)) {
        reject(`site "${siteName}" has no locale ${locale} (it has: ${config.site.locales.join(', ')})`, siteName);
        continue;
      }
      if (create) await store.upsertUnmanaged(config.site.id, locale, create);
      else
        await store.deleteUnmanaged(
          config.site.id,
          locale,
          id !== null ? { unmanagedId: id } : { provider: provider! },
        );
      acceptedHere = true;
    }
    if (acceptedHere) result.accepted += 1;
  }
  return result;
}
