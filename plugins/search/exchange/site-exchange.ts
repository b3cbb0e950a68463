import type { SearchHooks } from '../api.js';
import { siteCreateSchema } from '../schemas/site.js';
import type { Spotlight, SpotlightInput, SpotlightStore } from '../spotlights/spotlight-store.js';
import type { SiteStore } from '../store/site-store.js';

/** What an export reads and an import writes: the sites, their spotlights, and the plugins' members (hooks). */
export interface SiteExchange {
  sites: SiteStore;
  spotlights: SpotlightStore;
  hooks: Pick<SearchHooks, 'siteExport' | 'siteImport'>;
}

type Entry = Record<string, unknown>;

/** The members of an entry the site store restores; the others are the plugins' (and `spotlights`). */
const SITE_MEMBERS = new Set(Object.keys(siteCreateSchema.properties as object));

/** A spotlight as an export holds it: the site it belongs to is the entry's. */
function exportedSpotlight({ siteId: _siteId, ...spotlight }: Spotlight) {
  return spotlight;
}

const byName = (a: Spotlight, b: Spotlight) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
  a.locale.localeCompare(b.locale) ||
  a.createdAt.localeCompare(b.createdAt);

/**
 * The export file of these sites: each with its settings, locales, fields (without siteId), spotlights (by name)
 * and the members the plugins add through `search.siteExport`.
 */
export async function exportSites({ sites, spotlights, hooks }: SiteExchange, siteIds: string[]) {
  const entries: Entry[] = [];
  for (const id of siteIds) {
    const { site, fields } = sites.get(id);
    const entry: Entry = {
      ...site,
      fields: fields.map(({ siteId: _siteId, ...field }) => field),
      spotlights: spotlights.list(site.id).sort(byName).map(exportedSpotlight),
    };
    if (hooks.siteExport.isUsed()) await hooks.siteExport.promise({ siteId: site.id, entry });
    entries.push(entry);
  }
  return { version: 1, exportedAt: new Date().toISOString(), sites: entries };
}

/** A spotlight of an entry as the store creates it: its locale, else the entry's default or first one. */
function spotlightOf(entry: Entry, given: Entry): SpotlightInput & { name: string; locale: string } {
  const locales = (entry.locales as string[] | undefined) ?? ['en_US'];
  return {
    name: String(given.name),
    description: (given.description as string | null | undefined) ?? '',
    locale: (given.locale as string | undefined) ?? (entry.defaultLocale as string | null) ?? locales[0]!,
    managed: given.managed !== false,
    unmanagedId: (given.unmanagedId as string | null | undefined) ?? null,
    provider: (given.provider as string | null | undefined) ?? undefined,
    modificationDate: (given.modificationDate as string | null | undefined) ?? null,
    terms: ((given.terms as Array<string | { name: string }> | undefined) ?? []).map((t) =>
      typeof t === 'string' ? t : t.name,
    ),
    documents: (given.documents as SpotlightInput['documents']) ?? [],
  };
}

/**
 * Restores the sites of a checked export file, matched by name: each created or replaced (settings, locales,
 * fields), its spotlights replaced by the file's, then what the plugins keep for it (`search.siteImport`).
 */
export async function importSites({ sites, spotlights, hooks }: SiteExchange, entries: Entry[]) {
  const restored: Array<{ name: unknown; action: 'created' | 'replaced'; warnings?: string[] }> = [];
  for (const entry of entries) {
    const { id: _id, createdAt: _c, updatedAt: _u, spotlights: given, ...members } = entry;
    const site = Object.fromEntries(Object.entries(members).filter(([name]) => SITE_MEMBERS.has(name)));
    const fields = ((site.fields as Entry[] | undefined) ?? []).map(
      ({ id: _fid, siteId: _s, createdAt: _fc, updatedAt: _fu, ...f }) => f,
    );
    const { site: saved, action } = await sites.restore({ ...site, fields });
    await spotlights.replaceSite(
      saved.id,
      ((given as Entry[] | undefined) ?? []).map((s) => spotlightOf(entry, s)),
    );
    const warnings: string[] = [];
    if (hooks.siteImport.isUsed()) await hooks.siteImport.promise({ siteId: saved.id, entry, warnings });
    restored.push(warnings.length > 0 ? { name: entry.name, action, warnings } : { name: entry.name, action });
  }
  return { restored };
}
