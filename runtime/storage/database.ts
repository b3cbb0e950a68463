import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { RuntimeConfig } from '../config/load-config.js';
import type { Logger } from '../logger.js';

export type Database = Knex;
export type Dialect = 'sqlite' | 'postgres';

export const SQLITE_FILE = 'vela.sqlite';

/** A knex instance on PostgreSQL when a postgres:// URL is configured, else on the SQLite file in the data dir. */
export function createDatabase(config: RuntimeConfig['runtime'], logger: Logger): Database {
  // knex writes its own warnings to the console unless it is given a logger.
  const log = {
    warn: (message: unknown) => logger.warn({ knex: message }, 'database warning'),
    error: (message: unknown) => logger.error({ knex: message }, 'database error'),
    deprecate: (method: string, alternative: string) => logger.warn({ method, alternative }, 'deprecated knex call'),
    debug: (message: unknown) => logger.debug({ knex: message }, 'database debug'),
  };
  const url = config.database.url;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    return knexFactory({
      client: 'pg',
      connection: url,
      pool: { min: config.database.pool.min, max: config.database.pool.max },
      log,
    });
  }
  const filename = url?.startsWith('sqlite://')
    ? url.slice('sqlite://'.length)
    : path.join(config.dataDir, SQLITE_FILE);
  mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    log,
    // One connection: SQLite serialises writers anyway, and WAL lets readers of other processes go on.
    pool: {
      min: 1,
      max: 1,
      afterCreate(
        conn: { exec(sql: string, cb: (err: Error | null) => void): void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.exec(
          'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;',
          (err) => done(err, conn),
        );
      },
    },
  });
}

export function dialectOf(db: Database): Dialect {
  const client = String(db.client.config.client);
  return client === 'pg' || client === 'postgres' || client === 'postgresql' ? 'postgres' : 'sqlite';
}

export async function listTables(db: Database): Promise<string[]> {
  if (dialectOf(db) === 'postgres') {
    const rows = await db.select('tablename').from('pg_tables').where('schemaname', db.raw('current_schema()'));
    return rows.map((r: { tablename: string }) => r.tablename);
  }
  const rows = await db
    .select('name')
    .from('sqlite_master')
    .where('type', 'table')
    .andWhereNot('name', 'like', 'sqlite_%');
  return rows.map((r: { name: string }) => r.name);
}

/** `search` → `search_`, `my-plugin` → `my_plugin_`: the prefix every table of that owner starts with. */
export function tablePrefix(owner: string): string {
  return `${owner.replace(/-/g, '_')}_`;
}
