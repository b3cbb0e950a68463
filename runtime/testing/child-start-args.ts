import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type TestTeardown, testDatabase } from './test-postgres.js';

/**
 * The arguments of `vela start` for a child runtime that a test kills and starts again on the folder `dir`:
 * `plugins`, a data folder in `dir`, and a config file there holding `settings`, on a throw-away PostgreSQL
 * database (dropped after the test) when `database` is 'postgres', on SQLite in the data folder otherwise.
 */
export async function childStartArgs(
  t: TestTeardown,
  dir: string,
  plugins: string[],
  settings: Record<string, unknown>,
  database: 'sqlite' | 'postgres',
): Promise<string[]> {
  const config = path.join(dir, 'vela.json');
  const runtime = database === 'postgres' ? { database: { url: (await testDatabase(t)).url } } : undefined;
  writeFileSync(config, JSON.stringify(runtime ? { ...settings, runtime } : settings));
  return ['--plugins', plugins.join(','), '--data-dir', path.join(dir, 'data'), '--config', config];
}
