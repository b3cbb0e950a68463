import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { bootErrors, VelaError } from '../errors.js';
import { type Database, listTables, tablePrefix } from './database.js';

interface MigrationModule {
  up(db: Knex): Promise<unknown>;
  down?(db: Knex): Promise<unknown>;
}

/**
 * Files of a migrations folder, oldest first by name (`001_sites.ts`, `002_fields.ts`, ...). Each
 * migration checks, inside its own transaction, that it created only tables with the owner's
 * prefix, so a migration that breaks the rule is rolled back and never recorded as applied.
 */
class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(
    private readonly dir: string,
    private readonly owner: string,
  ) {}

  async getMigrations(): Promise<string[]> {
    if (!existsSync(this.dir)) return [];
    return (await readdir(this.dir)).filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
  }

  getMigrationName(file: string): string {
    // Names are stored without extension, so a migration keeps its identity after a build to .js.
    return file.replace(/\.(ts|js|mjs)$/, '');
  }

  async getMigration(file: string): Promise<Knex.Migration> {
    const mod = (await import(pathToFileURL(path.join(this.dir, file)).href)) as MigrationModule;
    if (typeof mod.up !== 'function') throw new Error(`${path.join(this.dir, file)} exports no up(db) function`);
    const prefix = tablePrefix(this.owner);
    return {
      up: async (db) => {
        const before = new Set(await listTables(db));
        await mod.up(db);
        const foreign = (await listTables(db)).filter((t) => !before.has(t) && !t.startsWith(prefix));
        if (foreign.length > 0) throw bootErrors.tablePrefix(this.owner, foreign, prefix);
      },
      down: (db) => (mod.down ? mod.down(db) : Promise.resolve()),
    };
  }
}

export interface MigrationReport {
  owner: string;
  applied: string[];
}

/**
 * Bring the owner's tables up to date. Each owner has its own migrations table, so plugins migrate
 * independently, and every table it creates must carry its prefix.
 */
export async function migrateOwner(db: Database, owner: string, dir: string): Promise<MigrationReport> {
  try {
    const [, applied] = (await db.migrate.latest({
      migrationSource: new FolderMigrationSource(dir, owner),
      tableName: `${tablePrefix(owner)}knex_migrations`,
    })) as [number, string[]];
    return { owner, applied };
  } catch (error) {
    if (error instanceof VelaError) throw error;
    throw bootErrors.migration(owner, (error as Error).message);
  }
}

/** A migration's `down`: drops `tables` in the order given (those that refer to others first), each if it exists. */
export async function dropTables(db: Knex, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTableIfExists(table);
}
