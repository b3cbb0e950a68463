import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import type { Database } from 'vela/plugin';
import { createLogger, testFolder } from 'vela/testing';
import type { RuntimeConfig } from '../../../runtime/config/load-config.js';
import { createDatabase } from '../../../runtime/storage/database.js';
import { migrateOwner } from '../../../runtime/storage/migrations.js';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

/**
 * The semantic plugin's tables on a database as the runtime opens it: a SQLite file in a fresh data folder
 * (`databaseUrl` undefined) or the PostgreSQL database at `databaseUrl`, migrated by the runtime's own migrator.
 * `open` gives another connection pool on the same database (another process, as far as locks go).
 */
export async function storeDatabase(
  t: ExecutionContext,
  databaseUrl: string | undefined,
): Promise<{ db: Database; open: () => Database }> {
  const dataDir = testFolder(t, 'semantic-store');
  const open = () => {
    const db = createDatabase(
      { dataDir, database: { url: databaseUrl ?? null, pool: { min: 0, max: 4 } } } as RuntimeConfig['runtime'],
      createLogger({ level: 'silent' }),
    );
    t.teardown(() => db.destroy());
    return db;
  };
  const db = open();
  await migrateOwner(db, 'semantic', MIGRATIONS);
  return { db, open };
}
