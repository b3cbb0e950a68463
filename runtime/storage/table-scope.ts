import { VelaError } from '../errors.js';
import { type Database, tablePrefix } from './database.js';

/**
 * Whether plugins' database handles refuse other owners' tables: outside production, so tests and development catch it.
 */
export const TABLE_SCOPE_CHECKED = process.env.NODE_ENV !== 'production';

// A table follows these keywords in what knex writes (quoted, maybe schema-qualified) and in raw SQL.
const TABLE_REF =
  /\b(?:from|join|into|update|table(?:\s+if(?:\s+not)?\s+exists)?|references)\s+(?:only\s+)?((?:[`"]?\w+[`"]?\.)?[`"]?\w+[`"]?)/gi;
/** Tables per SQL text, so a statement run again (a batch import's insert) is parsed once. */
const parsed = new Map<string, readonly string[]>();
const PARSED_LIMIT = 2000;

/** The table names a statement reads or writes, lower case and unquoted. */
export function tablesOf(sql: string): readonly string[] {
  let tables = parsed.get(sql);
  if (tables) return tables;
  const found = new Set<string>();
  for (const m of sql.matchAll(TABLE_REF)) found.add(m[1]!.replace(/[`"]/g, '').split('.').pop()!.toLowerCase());
  tables = [...found];
  // Raw SQL with values written into it would grow the cache without end: start again past the bound.
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(sql, tables);
  return tables;
}

export class TableScopeError extends VelaError {
  constructor(plugin: string, table: string, owner: string) {
    const whose =
      owner === 'runtime'
        ? 'the runtime (reach it through its services: accounts, changes)'
        : `plugin "${owner}" (reach it through that plugin's services)`;
    super(
      'E_TABLE_SCOPE',
      `plugin "${plugin}" queried table "${table}", which belongs to ${whose}; a plugin's database handle reaches only its own tables (${tablePrefix(plugin)}*)`,
      500,
    );
  }
}

/**
 * The owner of a table among `owners` (the runtime and the loaded plugins): the one with the longest
 * prefix the name starts with, so `search_postgres_docs` is search-postgres's, not search's. Undefined for
 * a table no owner's prefix names (the database's own catalogs, a CTE's name).
 */
export function ownerOfTable(table: string, owners: readonly string[]): string | undefined {
  let best: string | undefined;
  let length = 0;
  for (const owner of owners) {
    const prefix = tablePrefix(owner);
    if (table.startsWith(prefix) && prefix.length > length) {
      best = owner;
      length = prefix.length;
    }
  }
  return best;
}

/**
 * The handle a plugin gets as `db`: the runtime's pool, through a knex instance of its own whose every
 * statement (its transactions' included) is refused before it runs when it names a table of another owner.
 */
export function scopedDatabase(db: Database, plugin: string, owners: readonly string[]): Database {
  const scoped = db.withUserParams({ plugin });
  const refuse = (query: { sql?: unknown }) => {
    if (typeof query.sql !== 'string') return;
    for (const table of tablesOf(query.sql)) {
      const owner = ownerOfTable(table, owners);
      if (owner !== undefined && owner !== plugin) throw new TableScopeError(plugin, table, owner);
    }
  };
  scoped.on('query', refuse);
  return scoped;
}
