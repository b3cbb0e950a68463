import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database, JsonSchema, Logger, VelaError } from 'vela/plugin';
import {
  httpErrors,
  isCorruptRow,
  isUniqueViolation,
  nowIso,
  readJson,
  refuseDuplicate,
  toIso,
  validateAgainst,
  writeJson,
} from 'vela/plugin';
import { searchErrors } from '../errors.js';
import { fieldCreateSchema, fieldSettingsProperties, TEMPLATE_FIELDS } from '../schemas/field.js';
import { siteCreateSchema, siteSettingKeys, siteSettingsProperties } from '../schemas/site.js';
import type { Field, FieldSettings, Site, SiteConfig, SiteSettings } from './site-types.js';

interface SiteRow {
  id: string;
  name: string;
  settings: unknown;
  created_at: unknown;
  updated_at: unknown;
}
interface FieldRow {
  id: string;
  site_id: string;
  name: string;
  settings: unknown;
  created_at: unknown;
  updated_at: unknown;
}
interface LocaleRow {
  id: string;
  site_id: string;
  locale: string;
  created_at: unknown;
}

export type SiteChange = {
  kind: 'site-created' | 'site-updated' | 'site-deleted' | 'fields-changed' | 'locales-changed';
  siteId: string;
};

const fieldKeys = Object.keys(fieldSettingsProperties);
/** Least time between the starts of two refreshes a refused search asks for (refreshSoon). */
const REFRESH_SOON_GAP_MS = 50;

function withDefaults<T>(properties: Record<string, JsonSchema>, value: Record<string, unknown>): T {
  return validateAgainst<T>({ type: 'object', properties }, value, { applyDefaults: true }).value;
}

/** The settings column of a stored site or field, read with the defaults of what it does not hold. */
function storedSettings<T>(
  table: string,
  row: { id: string; settings: unknown },
  properties: Record<string, JsonSchema>,
): T {
  return withDefaults<T>(
    properties,
    readJson<Record<string, unknown>>(row.settings, { table, column: 'settings', row: row.id }),
  );
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/**
 * Sites, their locales and fields: stored through knex and held in memory, so a search reads its
 * site's configuration without a database round trip. Every write goes to the database first.
 */
export class SiteStore {
  private readonly sites = new Map<string, SiteConfig>();
  private readonly listeners: Array<(change: SiteChange) => Promise<void> | void> = [];
  private writes: Promise<unknown> = Promise.resolve();
  /** The refresh refreshSoon queued that has not started yet, and when the last one started. */
  private nextRefresh: Promise<void> | null = null;
  private lastRefreshSoon = Number.NEGATIVE_INFINITY;

  /** Sites left out because a row of theirs is corrupt: warned about once, until they read well again. */
  private readonly corrupt = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  /** Listeners run after each write, and the write waits for them (an index rebuild, say). */
  onChange(listener: (change: SiteChange) => Promise<void> | void): void {
    this.listeners.push(listener);
  }

  async load(): Promise<void> {
    const [sites, fields, locales] = await Promise.all([
      this.db<SiteRow>('search_sites').select(),
      this.db<FieldRow>('search_fields').select().orderBy('created_at').orderBy('name'),
      this.db<LocaleRow>('search_site_locales').select().orderBy('created_at').orderBy('locale'),
    ]);
    this.sites.clear();
    for (const row of sites) {
      const config = this.readable(row.id, () =>
        this.config(
          this.siteFromRow(
            row,
            locales.filter((l) => l.site_id === row.id).map((l) => l.locale),
          ),
          fields.filter((f) => f.site_id === row.id).map((f) => this.fieldFromRow(f)),
        ),
      );
      if (config) this.sites.set(row.id, config);
    }
  }

  /**
   * A site's configuration as `read` makes it from its rows, or null when one of them is corrupt (the error
   * names it): the site is left out, with one warning, rather than take every other site down with it.
   */
  private readable(siteId: string, read: () => SiteConfig): SiteConfig | null {
    try {
      const config = read();
      this.corrupt.delete(siteId);
      return config;
    } catch (error) {
      if (!isCorruptRow(error)) throw error;
      if (!this.corrupt.has(siteId))
        this.logger.warn({ site: siteId, err: error }, `${error.message}; the site is left out until it is repaired`);
      this.corrupt.add(siteId);
      return null;
    }
  }

  /**
   * Pick up what other processes sharing the database changed (PostgreSQL mode): sites whose
   * settings, fields or locales differ from memory are reloaded and announced like local writes.
   * In turn with this process's writes: a site created while the fingerprints were read would be missing from
   * them, and taken for one another process deleted (its index dropped until the next refresh).
   */
  refresh(): Promise<void> {
    return this.serially(() => this.refreshNow());
  }

  /**
   * A refresh that starts after this call: what another process acknowledged before it is seen. Calls made
   * before it starts share it, and it starts at least REFRESH_SOON_GAP_MS after the one before, so a stream of
   * refused searches (any client can send them) costs at most one read of the sites at a time, 20 a second.
   */
  refreshSoon(): Promise<void> {
    if (this.nextRefresh) return this.nextRefresh;
    const wait = this.lastRefreshSoon + REFRESH_SOON_GAP_MS - performance.now();
    const next = (wait > 0 ? sleep(wait) : Promise.resolve()).then(() =>
      this.serially(() => {
        this.nextRefresh = null;
        this.lastRefreshSoon = performance.now();
        return this.refreshNow();
      }),
    );
    this.nextRefresh = next;
    return next;
  }

  private async refreshNow(): Promise<void> {
    const stored = await this.fingerprints();
    for (const [siteId, print] of stored) {
      const known = this.sites.get(siteId);
      if (known && this.fingerprintOf(known) === print) continue;
      if (await this.reloadSite(siteId))
        await this.emit({ kind: known ? 'site-updated' : 'site-created', siteId }, false);
      else if (known) await this.emit({ kind: 'site-deleted', siteId }, false);
    }
    for (const siteId of [...this.sites.keys()]) {
      if (stored.has(siteId)) continue;
      this.sites.delete(siteId);
      await this.emit({ kind: 'site-deleted', siteId }, false);
    }
  }

  private async fingerprints(): Promise<Map<string, string>> {
    const [sites, fields, locales] = await Promise.all([
      this.db<SiteRow>('search_sites').select('id', 'name', 'updated_at'),
      this.db('search_fields').select('site_id', 'id', 'updated_at'),
      this.db<LocaleRow>('search_site_locales').select('site_id', 'locale'),
    ]);
    const out = new Map<string, string>();
    for (const site of sites) {
      const f = (fields as FieldRow[])
        .filter((x) => x.site_id === site.id)
        .map((x) => `${x.id}@${toIso(x.updated_at)}`)
        .sort();
      const l = locales
        .filter((x) => x.site_id === site.id)
        .map((x) => x.locale)
        .sort();
      out.set(site.id, JSON.stringify([site.name, toIso(site.updated_at), f, l]));
    }
    return out;
  }

  private fingerprintOf(config: SiteConfig): string {
    const f = config.fields.map((x) => `${x.id}@${x.updatedAt}`).sort();
    return JSON.stringify([config.site.name, config.site.updatedAt, f, [...config.site.locales].sort()]);
  }

  list(): Site[] {
    return [...this.sites.values()].map((c) => c.site).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** By id, then exact name, then name ignoring case. */
  find(idOrName: string): SiteConfig | undefined {
    const byId = this.sites.get(idOrName);
    if (byId) return byId;
    let caseless: SiteConfig | undefined;
    for (const config of this.sites.values()) {
      if (config.site.name === idOrName) return config;
      if (!caseless && config.site.name.toLowerCase() === idOrName.toLowerCase()) caseless = config;
    }
    return caseless;
  }

  get(idOrName: string): SiteConfig {
    const config = this.find(idOrName);
    if (!config) throw searchErrors.siteNotFound(idOrName);
    return config;
  }

  /**
   * Writes of sites, fields and locales run one at a time in this process, so each one's checks against
   * memory (names unique ignoring case, one field name per site) see the write before it. Another process
   * sharing the database can still race: its unique keys refuse the duplicate, answered as a 409 too.
   */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  create(input: Record<string, unknown>): Promise<Site> {
    return this.serially(() => this.insertSite(input));
  }

  private async insertSite(input: Record<string, unknown>): Promise<Site> {
    checkSite(input);
    const name = String(input.name);
    if (this.find(name)?.site.name.toLowerCase() === name.toLowerCase()) throw searchErrors.siteNameTaken(name);
    const id = typeof input.id === 'string' && input.id ? input.id : randomUUID();
    if (this.sites.has(id)) throw searchErrors.siteIdTaken(id);
    const settings = withDefaults<SiteSettings>(siteSettingsProperties, pick(input, siteSettingKeys));
    const locales = (input.locales as string[] | undefined) ?? ['en_US'];
    const fieldInputs =
      (input.fields as Array<Record<string, unknown>> | undefined) ?? TEMPLATE_FIELDS.map((f) => ({ ...f }));
    const stamp = nowIso();
    try {
      await this.db.transaction(async (trx) => {
        await trx('search_sites').insert({
          id,
          name,
          settings: writeJson(settings),
          created_at: stamp,
          updated_at: stamp,
        });
        for (const locale of locales)
          await trx('search_site_locales').insert({ id: randomUUID(), site_id: id, locale, created_at: stamp });
        const seen = new Set<string>();
        for (const fieldInput of fieldInputs) {
          const fieldName = String(fieldInput.name);
          if (seen.has(fieldName)) throw searchErrors.fieldNameTaken(name, fieldName);
          seen.add(fieldName);
          const fieldSettings = withDefaults<FieldSettings>(fieldSettingsProperties, pick(fieldInput, fieldKeys));
          await trx('search_fields').insert({
            id: randomUUID(),
            site_id: id,
            name: fieldName,
            settings: writeJson(fieldSettings),
            created_at: stamp,
            updated_at: stamp,
          });
        }
      });
    } catch (error) {
      throw (await this.siteNameConflict(error, name, null)) ?? (await this.siteIdConflict(error, id)) ?? error;
    }
    await this.reloadSite(id);
    await this.emit({ kind: 'site-created', siteId: id });
    return this.get(id).site;
  }

  update(idOrName: string, patch: Record<string, unknown>): Promise<Site> {
    return this.serially(() => this.updateSite(idOrName, patch));
  }

  private async updateSite(idOrName: string, patch: Record<string, unknown>): Promise<Site> {
    const { site } = this.get(idOrName);
    const name = typeof patch.name === 'string' ? patch.name : site.name;
    const clash = this.find(name);
    if (clash && clash.site.id !== site.id && clash.site.name.toLowerCase() === name.toLowerCase())
      throw searchErrors.siteNameTaken(name);
    const settings = {
      ...pick(site as unknown as Record<string, unknown>, siteSettingKeys),
      ...pick(patch, siteSettingKeys),
    };
    try {
      await this.db.transaction(async (trx) => {
        await trx('search_sites')
          .where({ id: site.id })
          .update({ name, settings: writeJson(settings), updated_at: nowIso() });
        if (Array.isArray(patch.locales)) await this.replaceLocales(trx, site.id, patch.locales as string[]);
      });
    } catch (error) {
      throw (await this.siteNameConflict(error, name, site.id)) ?? error;
    }
    await this.reloadSite(site.id);
    await this.emit({ kind: 'site-updated', siteId: site.id });
    return this.get(site.id).site;
  }

  delete(idOrName: string): Promise<Site> {
    return this.serially(() => this.deleteSite(idOrName));
  }

  private async deleteSite(idOrName: string): Promise<Site> {
    const { site } = this.get(idOrName);
    await this.db.transaction(async (trx) => {
      // Children first: SQLite enforces foreign keys only with the pragma, so do not rely on cascades.
      await trx('search_documents').where({ site_id: site.id }).delete();
      await trx('search_changes').where({ site_id: site.id }).delete();
      await trx('search_fields').where({ site_id: site.id }).delete();
      await trx('search_site_locales').where({ site_id: site.id }).delete();
      await trx('search_sites').where({ id: site.id }).delete();
    });
    this.sites.delete(site.id);
    await this.emit({ kind: 'site-deleted', siteId: site.id });
    return site;
  }

  addLocale(idOrName: string, locale: string): Promise<Site> {
    return this.serially(() => this.insertLocale(idOrName, locale));
  }

  private async insertLocale(idOrName: string, locale: string): Promise<Site> {
    const { site } = this.get(idOrName);
    if (site.locales.includes(locale)) throw searchErrors.localeTaken(site.name, locale);
    await refuseDuplicate(
      () => this.db('search_site_locales').insert({ id: randomUUID(), site_id: site.id, locale, created_at: nowIso() }),
      () => searchErrors.localeTaken(site.name, locale),
    );
    await this.reloadSite(site.id);
    await this.emit({ kind: 'locales-changed', siteId: site.id });
    return this.get(site.id).site;
  }

  removeLocale(idOrName: string, locale: string): Promise<Site> {
    return this.serially(() => this.deleteLocale(idOrName, locale));
  }

  private async deleteLocale(idOrName: string, locale: string): Promise<Site> {
    const { site } = this.get(idOrName);
    if (!site.locales.includes(locale)) throw searchErrors.localeNotFound(site.name, locale, site.locales);
    if (site.locales.length === 1) throw searchErrors.lastLocale(site.name);
    await this.db.transaction(async (trx) => {
      await trx('search_documents').where({ site_id: site.id, locale }).delete();
      await trx('search_changes').where({ site_id: site.id, locale }).delete();
      await trx('search_site_locales').where({ site_id: site.id, locale }).delete();
    });
    await this.reloadSite(site.id);
    await this.emit({ kind: 'locales-changed', siteId: site.id });
    return this.get(site.id).site;
  }

  field(siteIdOrName: string, fieldId: string): Field {
    const config = this.get(siteIdOrName);
    const field = config.fields.find((f) => f.id === fieldId) ?? config.fieldsByName.get(fieldId);
    if (!field) throw searchErrors.fieldNotFound(config.site.name, fieldId);
    return field;
  }

  createField(siteIdOrName: string, input: Record<string, unknown>): Promise<Field> {
    return this.serially(() => this.insertField(siteIdOrName, input));
  }

  private async insertField(siteIdOrName: string, input: Record<string, unknown>): Promise<Field> {
    checkField(input);
    const { site, fieldsByName } = this.get(siteIdOrName);
    const name = String(input.name);
    if (fieldsByName.has(name)) throw searchErrors.fieldNameTaken(site.name, name);
    const id = typeof input.id === 'string' && input.id ? input.id : randomUUID();
    const settings = withDefaults<FieldSettings>(fieldSettingsProperties, pick(input, fieldKeys));
    const stamp = nowIso();
    try {
      await this.db('search_fields').insert({
        id,
        site_id: site.id,
        name,
        settings: writeJson(settings),
        created_at: stamp,
        updated_at: stamp,
      });
    } catch (error) {
      throw (await this.fieldNameConflict(error, site, name)) ?? (await this.fieldIdConflict(error, id)) ?? error;
    }
    await this.reloadSite(site.id);
    await this.emit({ kind: 'fields-changed', siteId: site.id });
    return this.field(site.id, id);
  }

  /**
   * Create the fields a batch of documents declares in `specs` that the site does not have yet.
   * A spec that is not a valid field is passed over (the documents keep the attribute as stored data).
   */
  async ensureFields(siteId: string, specs: Array<Record<string, unknown>>): Promise<string[]> {
    const problems: string[] = [];
    for (const spec of specs) {
      if (this.get(siteId).fieldsByName.has(String(spec.name))) continue;
      const result = validateAgainst(fieldCreateSchema, spec, { root: `spec ${JSON.stringify(spec.name)}` });
      if (!result.valid) {
        problems.push(...result.problems);
        continue;
      }
      // Concurrent imports may declare the same field: the first creates it, the others find it.
      await this.serially(async () => {
        if (!this.get(siteId).fieldsByName.has(String(spec.name))) await this.insertField(siteId, spec);
      });
    }
    return problems;
  }

  /**
   * Restore a site from an export: settings, locales and fields replaced in one transaction, so
   * its index is rebuilt once.
   */
  restore(entry: Record<string, unknown>): Promise<{ site: Site; action: 'created' | 'replaced' }> {
    return this.serially(() => this.restoreSite(entry));
  }

  private async restoreSite(entry: Record<string, unknown>): Promise<{ site: Site; action: 'created' | 'replaced' }> {
    const existing = this.find(String(entry.name));
    if (!existing) return { site: await this.insertSite(entry), action: 'created' };
    const siteId = existing.site.id;
    const settings = withDefaults<SiteSettings>(siteSettingsProperties, pick(entry, siteSettingKeys));
    const fields = (entry.fields as Array<Record<string, unknown>> | undefined) ?? [];
    const stamp = nowIso();
    await this.db.transaction(async (trx) => {
      await trx('search_sites')
        .where({ id: siteId })
        .update({ settings: writeJson(settings), updated_at: stamp });
      if (Array.isArray(entry.locales)) await this.replaceLocales(trx, siteId, entry.locales as string[]);
      await trx('search_fields').where({ site_id: siteId }).delete();
      for (const field of fields) {
        const fieldSettings = withDefaults<FieldSettings>(fieldSettingsProperties, pick(field, fieldKeys));
        await trx('search_fields').insert({
          id: randomUUID(),
          site_id: siteId,
          name: String(field.name),
          settings: writeJson(fieldSettings),
          created_at: stamp,
          updated_at: stamp,
        });
      }
    });
    await this.reloadSite(siteId);
    await this.emit({ kind: 'site-updated', siteId });
    return { site: this.get(siteId).site, action: 'replaced' };
  }

  updateField(siteIdOrName: string, fieldId: string, patch: Record<string, unknown>): Promise<Field> {
    return this.serially(() => this.changeField(siteIdOrName, fieldId, patch));
  }

  private async changeField(siteIdOrName: string, fieldId: string, patch: Record<string, unknown>): Promise<Field> {
    checkField({ ...patch, name: patch.name ?? 'x' });
    const { site, fieldsByName } = this.get(siteIdOrName);
    const field = this.field(site.id, fieldId);
    const name = typeof patch.name === 'string' ? patch.name : field.name;
    if (name !== field.name && fieldsByName.has(name)) throw searchErrors.fieldNameTaken(site.name, name);
    const settings = { ...pick(field as unknown as Record<string, unknown>, fieldKeys), ...pick(patch, fieldKeys) };
    // The row's one unique key that can change is (site, name).
    await refuseDuplicate(
      () =>
        this.db('search_fields')
          .where({ id: field.id })
          .update({ name, settings: writeJson(settings), updated_at: nowIso() }),
      () => searchErrors.fieldNameTaken(site.name, name),
    );
    await this.reloadSite(site.id);
    await this.emit({ kind: 'fields-changed', siteId: site.id });
    return this.field(site.id, field.id);
  }

  deleteField(siteIdOrName: string, fieldId: string): Promise<Field> {
    return this.serially(() => this.removeField(siteIdOrName, fieldId));
  }

  private async removeField(siteIdOrName: string, fieldId: string): Promise<Field> {
    const { site } = this.get(siteIdOrName);
    const field = this.field(site.id, fieldId);
    await this.db('search_fields').where({ id: field.id }).delete();
    await this.reloadSite(site.id);
    await this.emit({ kind: 'fields-changed', siteId: site.id });
    return field;
  }

  /**
   * Whether a write that a unique key refused met a row already stored (`query` finds it): another process
   * wrote that key first. A write touching several unique keys looks for each, to name the one taken.
   */
  private async stored(error: unknown, query: PromiseLike<unknown[]>): Promise<boolean> {
    if (!isUniqueViolation(error)) return false;
    return (await query).length > 0;
  }

  /** The 409 for a site name (ignoring case) stored by another write, or null; `self` is the site being renamed. */
  private async siteNameConflict(error: unknown, name: string, self: string | null): Promise<VelaError | null> {
    const rows = this.db<SiteRow>('search_sites').select('id').whereRaw('lower(name) = ?', [name.toLowerCase()]);
    if (self) rows.whereNot({ id: self });
    return (await this.stored(error, rows)) ? searchErrors.siteNameTaken(name) : null;
  }

  private async siteIdConflict(error: unknown, id: string): Promise<VelaError | null> {
    return (await this.stored(error, this.db('search_sites').select('id').where({ id })))
      ? searchErrors.siteIdTaken(id)
      : null;
  }

  private async fieldNameConflict(error: unknown, site: Site, name: string): Promise<VelaError | null> {
    const rows = this.db<FieldRow>('search_fields').select('id').where({ site_id: site.id, name });
    return (await this.stored(error, rows)) ? searchErrors.fieldNameTaken(site.name, name) : null;
  }

  private async fieldIdConflict(error: unknown, id: string): Promise<VelaError | null> {
    return (await this.stored(error, this.db('search_fields').select('id').where({ id })))
      ? searchErrors.fieldIdTaken(id)
      : null;
  }

  private async replaceLocales(trx: Database, siteId: string, locales: string[]): Promise<void> {
    const current = (await trx<LocaleRow>('search_site_locales').where({ site_id: siteId })).map((r) => r.locale);
    const removed = current.filter((l) => !locales.includes(l));
    if (removed.length > 0) {
      await trx('search_documents').where({ site_id: siteId }).whereIn('locale', removed).delete();
      await trx('search_changes').where({ site_id: siteId }).whereIn('locale', removed).delete();
      await trx('search_site_locales').where({ site_id: siteId }).whereIn('locale', removed).delete();
    }
    for (const locale of locales.filter((l) => !current.includes(l))) {
      await trx('search_site_locales').insert({ id: randomUUID(), site_id: siteId, locale, created_at: nowIso() });
    }
  }

  /** Read a site again from the database; false when it is gone (or left out, corrupt). */
  private async reloadSite(siteId: string): Promise<boolean> {
    const row = await this.db<SiteRow>('search_sites').where({ id: siteId }).first();
    if (!row) {
      this.sites.delete(siteId);
      return false;
    }
    const locales = (
      await this.db<LocaleRow>('search_site_locales').where({ site_id: siteId }).orderBy('created_at').orderBy('locale')
    ).map((l) => l.locale);
    const fields = await this.db<FieldRow>('search_fields')
      .where({ site_id: siteId })
      .orderBy('created_at')
      .orderBy('name');
    const config = this.readable(siteId, () =>
      this.config(
        this.siteFromRow(row, locales),
        fields.map((f) => this.fieldFromRow(f)),
      ),
    );
    if (config) this.sites.set(siteId, config);
    else this.sites.delete(siteId);
    return config !== null;
  }

  private config(site: Site, fields: Field[]): SiteConfig {
    return { site, fields, fieldsByName: new Map(fields.map((f) => [f.name, f])) };
  }

  private siteFromRow(row: SiteRow, locales: string[]): Site {
    const settings = storedSettings<SiteSettings>('search_sites', row, siteSettingsProperties);
    return {
      id: row.id,
      name: row.name,
      ...settings,
      locales,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }

  private fieldFromRow(row: FieldRow): Field {
    const settings = storedSettings<FieldSettings>('search_fields', row, fieldSettingsProperties);
    return {
      id: row.id,
      siteId: row.site_id,
      name: row.name,
      ...settings,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }

  /** Called after each write made by this process (not for what `refresh` finds): announce it to the others. */
  onLocalWrite: ((change: SiteChange) => void) | null = null;

  private async emit(change: SiteChange, local = true): Promise<void> {
    // The other processes first: this one's listeners may rebuild engines for a while.
    if (local) this.onLocalWrite?.(change);
    for (const listener of this.listeners) await listener(change);
  }
}

/** Sites also arrive from other plugins (search.sites) and restores, so the store checks them itself. */
function checkSite(input: Record<string, unknown>): void {
  const result = validateAgainst(siteCreateSchema, input, { root: 'site' });
  if (!result.valid) throw httpErrors.validation(result.problems.join('; '));
}

/** The store checks field input itself too: fields also arrive from import specs and restores. */
function checkField(input: Record<string, unknown>): void {
  const result = validateAgainst(fieldCreateSchema, input, { root: 'field' });
  if (!result.valid) throw httpErrors.validation(result.problems.join('; '));
}
