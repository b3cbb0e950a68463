import type {} from '@vela/plugin-search/api';
import { definePlugin } from 'vela/plugin';
import { createPostgresEngineFactory } from './engine/postgres-engine.js';

const consumes = ['db'] as const;

/**
 * Registers `postgres` through the search plugin's `search.engines` hook, so that `"engine": "postgres"` in the
 * search plugin's config keeps the indexes in this plugin's tables (migrations/) instead of each process's memory.
 * Over SQLite there are no such tables and no engine: choosing it there stops the start with the reason.
 */
export default definePlugin<Record<string, never>, typeof consumes>({
  consumes,
  register(ctx) {
    const db = ctx.resolve('db');
    const dialect = db.client.dialect;
    ctx.hooks.tap('search.engines', 'postgres', (engines) => {
      if (dialect === 'postgresql') {
        // The factory opens nothing: its engines query the runtime's pool, and only if the setting chooses it.
        engines.register('postgres', createPostgresEngineFactory(db));
        return;
      }
      if (engines.configured === 'postgres') {
        throw new Error(
          `search plugin config: "engine": "postgres" needs a PostgreSQL database, and this runtime's database is ${dialect}; use "engine": "memory" or a postgres:// database URL (the search-postgres plugin provides the engine over PostgreSQL only)`,
        );
      }
    });
  },
});
