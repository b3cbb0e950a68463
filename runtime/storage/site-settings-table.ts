import type { Logger } from '../logger.js';
import { CachedTable } from './cached-table.js';
import type { Database } from './database.js';
import type { RowCodec, TableRow } from './row-codec.js';
import { nowIso } from './row-values.js';

/** What every per-site settings record carries besides its own members. */
export interface SiteSettingsMeta {
  /** false: the site has no row of its own and these are the defaults. */
  custom: boolean;
  updatedAt: string | null;
}

export interface SiteSettingsTableOptions<T> {
  db: Database;
  /** The row codec of the table, keyed by `site_id`, over the record's own members and `updatedAt`. */
  codec: RowCodec<Omit<T, 'custom'> & { updatedAt: string | null }>;
  /** What a site without a row has. */
  defaults: () => Omit<T, keyof SiteSettingsMeta>;
  logger: Logger;
  /** Tells the other processes after a committed write. */
  announce?: () => Promise<unknown>;
}

/** Ids per DELETE: well under the bound parameters every database takes. */
const PRUNE_BATCH = 500;

/**
 * A plugin's settings per search site, one row per site that has its own (keyed by site id), held in memory: the
 * request path reads them at no cost. A site without a row has the defaults. Writes merge a patch over what the site
 * has, reset drops the row, prune drops the rows of sites that are gone. Other processes' writes come in through
 * `load` (a StoreRefresh calls it on their notices).
 */
export class SiteSettingsTable<T extends SiteSettingsMeta> {
  private readonly bySite: CachedTable<TableRow, T>;
  private readonly table: string;

  constructor(private readonly options: SiteSettingsTableOptions<T>) {
    const { db, codec, logger } = options;
    this.table = codec.table;
    const fromRow = (row: TableRow) => ({ ...codec.fromRow(row), custom: true }) as T;
    this.bySite = new CachedTable({ db, table: codec.table, keyOf: codec.keyOf, fromRow, logger });
  }

  load(): Promise<void> {
    return this.bySite.load();
  }

  forSite(siteId: string): T {
    return this.bySite.get(siteId) ?? ({ ...this.options.defaults(), custom: false, updatedAt: null } as T);
  }

  /** The site's settings with the members `patch` sets (undefined ones keep their values), stored. */
  async save(siteId: string, patch: Partial<Omit<T, keyof SiteSettingsMeta>>): Promise<T> {
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const next = { ...this.forSite(siteId), ...defined, custom: true, updatedAt: nowIso() } as T;
    const row = this.options.codec.toRow(next);
    await this.options
      .db(this.table)
      .insert({ site_id: siteId, ...row })
      .onConflict('site_id')
      .merge(row);
    this.bySite.set(siteId, next);
    await this.options.announce?.();
    return next;
  }

  /** Back to the defaults. */
  async reset(siteId: string): Promise<T> {
    await this.options.db(this.table).where({ site_id: siteId }).delete();
    this.bySite.delete(siteId);
    await this.options.announce?.();
    return this.forSite(siteId);
  }

  /**
   * Deletes the settings of sites `siteExists` does not know (what a deleted site leaves behind); returns their ids.
   * Read from the database, so rows other processes wrote count too.
   */
  async prune(siteExists: (siteId: string) => boolean): Promise<string[]> {
    const { db } = this.options;
    const rows = (await db(this.table).select('site_id')) as Array<{ site_id: string }>;
    const gone = rows.map((r) => r.site_id).filter((siteId) => !siteExists(siteId));
    for (let i = 0; i < gone.length; i += PRUNE_BATCH)
      await db(this.table)
        .whereIn('site_id', gone.slice(i, i + PRUNE_BATCH))
        .delete();
    for (const siteId of gone) this.bySite.delete(siteId);
    if (gone.length > 0) await this.options.announce?.();
    return gone;
  }

  /** Ids of the sites whose `column` holds `value` (from the database: other processes' writes count). */
  async sitesWhere(column: string, value: string): Promise<string[]> {
    const rows = (await this.options.db(this.table).select('site_id').where(column, value)) as Array<{
      site_id: string;
    }>;
    return rows.map((r) => r.site_id);
  }
}
