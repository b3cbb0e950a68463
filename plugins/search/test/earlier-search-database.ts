import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { packageRoot } from 'vela/testing';
import { migrateOwner } from '../../../runtime/storage/migrations.js';

// A database as an earlier search plugin left it, for the upgrade tests of the plugins that took over a table of
// its: its migrations before `name` as they are now, then `name` as it ran then (a test fixture), which made the
// table the plugin now takes over.

/**
 * The database in `dataDir` (SQLite) or at `databaseUrl` (PostgreSQL), migrated as the search plugin did up to
 * migration `name`, which runs `fixture` (a migration module's URL). The caller fills it and destroys it.
 */
export async function earlierSearchDatabase(
  dataDir: string,
  databaseUrl: string | undefined,
  earlier: { name: string; fixture: URL },
): Promise<Knex> {
  const dir = path.join(dataDir, 'search-migrations');
  mkdirSync(dir);
  const current = path.join(packageRoot, 'plugins', 'search', 'migrations');
  for (const file of readdirSync(current).filter((f) => f < earlier.name))
    copyFileSync(path.join(current, file), path.join(dir, file));
  // Imported from where it is, so that it can import what it shares with the plugin's own migration.
  writeFileSync(path.join(dir, earlier.name), `export { down, up } from ${JSON.stringify(earlier.fixture.href)};\n`);
  const db = databaseUrl
    ? knexFactory({ client: 'pg', connection: databaseUrl })
    : knexFactory({
        client: 'sqlite3',
        connection: { filename: path.join(dataDir, 'vela.sqlite') },
        useNullAsDefault: true,
      });
  await migrateOwner(db, 'search', dir);
  return db;
}
