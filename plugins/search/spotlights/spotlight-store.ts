import { randomUUID } from 'node:crypto';
import { CachedTable, col, type Database, type Logger, nowIso, rowCodec, type TableRow } from 'vela/plugin';
import type { SiteStore } from '../store/site-store.js';

export interface SpotlightDocument {
  id: string;
  /** 1-based position in the whole result list (across pages). */
  position: number;
  title: string;
  type: string;
  /** Id of an indexed document shown in its place, or null (then title, content and link are shown). */
  referenceId: string | null;
  content: string;
  link: string | null;
}

export interface Spotlight {
  id: string;
  siteId: string;
  name: string;
  description: string;
  locale: string;
  /** false for spotlights the import API made (items of type TUR_SPOTLIGHT). */
  managed: boolean;
  /** The id the importer gave an unmanaged spotlight. */
  unmanagedId: string | null;
  provider: string;
  modificationDate: string | null;
  terms: string[];
  documents: SpotlightDocument[];
  createdAt: string;
  updatedAt: string;
}

/** What a write gives: the members to set (terms and documents replace the lists whole). */
export interface SpotlightInput {
  name?: string;
  description?: string;
  locale?: string;
  terms?: string[];
  documents?: Array<Omit<SpotlightDocument, 'id'> & { id?: string | null }>;
  managed?: boolean;
  unmanagedId?: string | null;
  provider?: string;
  modificationDate?: string | null;
}

const spotlights = rowCodec<Spotlight>('search_spotlights', {
  id: 'id',
  siteId: 'site_id',
  name: 'name',
  description: 'description',
  locale: 'locale',
  managed: col.bool('managed'),
  unmanagedId: 'unmanaged_id',
  provider: 'provider',
  modificationDate: 'modification_date',
  terms: col.json('terms'),
  documents: col.json('documents'),
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});
const TABLE = spotlights.table;

/** A matched spotlight document as widget.spotlights lists it: the document as stored (a copy). */
export type SpotlightWidgetItem = SpotlightDocument;

export const DEFAULT_PROVIDER = 'VELA';

/** Per site and locale: each spotlight with its terms in lower case, for matching. */
interface Matcher {
  entries: Array<{ spotlight: Spotlight; terms: string[] }>;
}

/**
 * Spotlights, written to the database and held in memory per site, so a search matches them without a
 * round trip. Processes sharing a database see each other's writes when one announces them (the runtime's
 * `changes` feed), else at the next refresh (every pollMs).
 */
export class SpotlightStore {
  /** Every spotlight by id; `bySite` is what searches read, made from it after each load. */
  private readonly byId: CachedTable<TableRow, Spotlight>;
  private bySite = new Map<string, Spotlight[]>();
  private matchers = new Map<string, Matcher>();
  /** Called after each committed write of this process: announce it to the others. */
  onWrite: (() => void) | null = null;
  private readonly matchListeners: Array<(siteId: string) => void> = [];

  constructor(
    private readonly db: Database,
    sites: SiteStore,
    logger: Logger,
  ) {
    this.byId = new CachedTable({ db, ...spotlights, logger, query: (q) => q.orderBy('created_at').orderBy('id') });
    sites.onChange((change) => {
      if (change.kind === 'site-deleted') this.forgetSite(change.siteId);
    });
  }

  /** Read every spotlight again (at start, every pollMs, and on another process's notice). */
  async load(): Promise<void> {
    await this.byId.load();
    this.regroup();
  }

  private regroup(): void {
    const bySite = new Map<string, Spotlight[]>();
    for (const spotlight of this.byId.values()) {
      const list = bySite.get(spotlight.siteId);
      if (list) list.push(spotlight);
      else bySite.set(spotlight.siteId, [spotlight]);
    }
    for (const list of bySite.values()) list.sort(byCreation);
    const before = this.bySite;
    this.bySite = bySite;
    // Loaded every pollMs: only the sites whose spotlights changed lose their matchers (and cached answers).
    for (const siteId of new Set([...before.keys(), ...bySite.keys()])) {
      if (versionsOf(before.get(siteId)) !== versionsOf(bySite.get(siteId))) this.forgetMatchers(siteId);
    }
  }

  /** Called whenever what a site's searches match may have changed, by a write of any process. */
  onMatchChange(listener: (siteId: string) => void): void {
    this.matchListeners.push(listener);
  }

  list(siteId: string): Spotlight[] {
    return [...(this.bySite.get(siteId) ?? [])];
  }

  find(siteId: string, id: string): Spotlight | undefined {
    return this.bySite.get(siteId)?.find((s) => s.id === id);
  }

  async create(
    siteId: string,
    input: SpotlightInput & { name: string; locale: string },
    id: string = randomUUID(),
  ): Promise<Spotlight> {
    const at = nowIso();
    const spotlight: Spotlight = {
      id,
      siteId,
      name: input.name,
      description: input.description ?? '',
      locale: input.locale,
      managed: input.managed ?? true,
      unmanagedId: input.unmanagedId ?? null,
      provider: input.provider ?? DEFAULT_PROVIDER,
      modificationDate: input.modificationDate ?? null,
      terms: cleanTerms(input.terms ?? []),
      documents: withIds(input.documents ?? []),
      createdAt: at,
      updatedAt: at,
    };
    await this.db(TABLE).insert(spotlights.toRow(spotlight));
    this.put(spotlight);
    this.onWrite?.();
    return spotlight;
  }

  async update(siteId: string, id: string, input: SpotlightInput): Promise<Spotlight | undefined> {
    const current = this.find(siteId, id);
    if (!current) return undefined;
    const spotlight: Spotlight = {
      ...current,
      name: input.name ?? current.name,
      description: input.description ?? current.description,
      locale: input.locale ?? current.locale,
      provider: input.provider ?? current.provider,
      modificationDate: input.modificationDate === undefined ? current.modificationDate : input.modificationDate,
      terms: input.terms ? cleanTerms(input.terms) : current.terms,
      documents: input.documents ? withIds(input.documents) : current.documents,
      updatedAt: nowIso(),
    };
    const { id: _id, site_id: _site, created_at: _created, ...changed } = spotlights.toRow(spotlight);
    await this.db(TABLE).where({ id, site_id: siteId }).update(changed);
    this.put(spotlight);
    this.onWrite?.();
    return spotlight;
  }

  async delete(siteId: string, id: string): Promise<Spotlight | undefined> {
    const current = this.find(siteId, id);
    if (!current) return undefined;
    await this.db(TABLE).where({ id, site_id: siteId }).delete();
    this.remove(current);
    this.onWrite?.();
    return current;
  }

  /** A site's spotlights replaced by these (a site restored from an export), each with a new id. */
  async replaceSite(siteId: string, inputs: ReadonlyArray<SpotlightInput & { name: string; locale: string }>) {
    for (const spotlight of this.list(siteId)) await this.delete(siteId, spotlight.id);
    for (const input of inputs) await this.create(siteId, input);
  }

  /**
   * An unmanaged spotlight from the import API: created, or replaced when one with its id exists in that site and
   * locale.
   */
  async upsertUnmanaged(
    siteId: string,
    locale: string,
    input: SpotlightInput & { name: string; unmanagedId: string },
  ): Promise<Spotlight> {
    const existing = this.list(siteId).find(
      (s) => !s.managed && s.unmanagedId === input.unmanagedId && s.locale === locale,
    );
    if (existing) return (await this.update(siteId, existing.id, input))!;
    return this.create(siteId, { ...input, locale, managed: false });
  }

  /**
   * Unmanaged spotlights of a site and locale removed by the import API: by the importer's id, or every one of a
   * provider.
   */
  async deleteUnmanaged(
    siteId: string,
    locale: string,
    by: { unmanagedId: string } | { provider: string },
  ): Promise<number> {
    const doomed = this.list(siteId).filter(
      (s) =>
        !s.managed &&
        s.locale === locale &&
        ('unmanagedId' in by ? s.unmanagedId === by.unmanagedId : s.provider === by.provider),
    );
    for (const spotlight of doomed) await this.delete(siteId, spotlight.id);
    return doomed.length;
  }

  /**
   * The documents of the site's spotlights in this locale that match the query (one of their terms, in lower
   * case, is part of the query in lower case), sorted by position (stable: spotlight order, then document order).
   */
  match(siteId: string, locale: string, query: string): SpotlightWidgetItem[] {
    const spotlights = this.bySite.get(siteId);
    if (!spotlights || spotlights.length === 0) return [];
    const key = `${siteId}\u0000${locale}`;
    let matcher = this.matchers.get(key);
    if (!matcher) {
      matcher = {
        entries: spotlights
          .filter((s) => s.locale === locale && s.terms.length > 0)
          .map((spotlight) => ({ spotlight, terms: spotlight.terms.map((t) => t.toLowerCase()) })),
      };
      this.matchers.set(key, matcher);
    }
    if (matcher.entries.length === 0) return [];
    const text = query.toLowerCase();
    const items: SpotlightWidgetItem[] = [];
    for (const { spotlight, terms } of matcher.entries) {
      if (!terms.some((term) => text.includes(term))) continue;
      for (const d of spotlight.documents) {
        items.push({
          id: d.id,
          position: d.position,
          title: d.title,
          type: d.type,
          referenceId: d.referenceId,
          content: d.content,
          link: d.link,
        });
      }
    }
    return items.sort((a, b) => a.position - b.position);
  }

  private put(spotlight: Spotlight): void {
    this.byId.set(spotlight.id, spotlight);
    const list = (this.bySite.get(spotlight.siteId) ?? []).filter((s) => s.id !== spotlight.id);
    list.push(spotlight);
    list.sort(byCreation);
    this.bySite.set(spotlight.siteId, list);
    this.forgetMatchers(spotlight.siteId);
  }

  private remove(spotlight: Spotlight): void {
    this.byId.delete(spotlight.id);
    this.bySite.set(
      spotlight.siteId,
      (this.bySite.get(spotlight.siteId) ?? []).filter((s) => s.id !== spotlight.id),
    );
    this.forgetMatchers(spotlight.siteId);
  }

  private forgetSite(siteId: string): void {
    for (const spotlight of this.bySite.get(siteId) ?? []) this.byId.delete(spotlight.id);
    this.bySite.delete(siteId);
    this.forgetMatchers(siteId);
  }

  private forgetMatchers(siteId: string): void {
    for (const key of this.matchers.keys()) if (key.startsWith(`${siteId}\u0000`)) this.matchers.delete(key);
    for (const listener of this.matchListeners) listener(siteId);
  }
}

/** A site's spotlights in the order they were made (the id orders those of one millisecond). */
function byCreation(a: Spotlight, b: Spotlight): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

function cleanTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.map((t) => t.trim()).filter((t) => t !== ''))];
}

function withIds(documents: NonNullable<SpotlightInput['documents']>): SpotlightDocument[] {
  return documents.map((d) => ({
    id: d.id || randomUUID(),
    position: d.position,
    title: d.title ?? '',
    type: d.type || 'Page',
    referenceId: d.referenceId || null,
    content: d.content ?? '',
    link: d.link || null,
  }));
}

/** What tells one load of a site's spotlights from another: all of them (two writes may share a millisecond). */
function versionsOf(spotlights: readonly Spotlight[] | undefined): string {
  return JSON.stringify(spotlights ?? []);
}
