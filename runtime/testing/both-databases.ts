import type { ExecutionContext, TestFn } from 'ava';
import { postgresReachable, testDatabase } from './test-postgres.js';

/**
 * Declares the test `title` on both databases the runtime runs on: "<title> (SQLite)" is given no database URL
 * (the runtime's own SQLite file), "<title> (PostgreSQL)" a throw-away PostgreSQL database, and is skipped where
 * no server answers.
 */
export function onBothDatabases(
  test: TestFn,
  title: string,
  check: (t: ExecutionContext, databaseUrl: string | undefined) => Promise<void>,
): void {
  test(`${title} (SQLite)`, (t) => check(t, undefined));
  (postgresReachable() ? test : test.skip)(`${title} (PostgreSQL)`, async (t) => check(t, (await testDatabase(t)).url));
}
