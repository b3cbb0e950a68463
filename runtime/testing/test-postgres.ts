import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** The server the PostgreSQL tests use: TEST_DATABASE_URL, else the local trust-auth cluster. */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPostgres {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the local PostgreSQL server, dropped afterwards; null when no server answers
 * (the caller skips, unless VELA_REQUIRE_POSTGRES=1, as CI sets, turns that into a failure).
 */
export async function createTestPostgres(): Promise<TestPostgres | null> {
  const admin = knexFactory({
    client: 'pg',
    connection: POSTGRES_ADMIN_URL,
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: 3000,
  });
  const name = `vela_test_${randomBytes(6).toString('hex')}`;
  try {
    await admin.raw(`create database ${name}`);
  } catch (error) {
    await admin.destroy();
    if (process.env.VELA_REQUIRE_POSTGRES === '1')
      throw new Error(
        `PostgreSQL is required (VELA_REQUIRE_POSTGRES=1) but ${POSTGRES_ADMIN_URL} failed: ${(error as Error).message}`,
      );
    return null;
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.raw(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.destroy();
      }
    },
  };
}

/** What a test registers its clean-ups on: ava's ExecutionContext is one (named here so the SDK needs no ava types). */
export interface TestTeardown {
  teardown(fn: () => Promise<void> | void): void;
}

/**
 * A fresh database for one test, dropped after it. Throws, which fails the test, when the server refuses to
 * create one: a test that runs only where PostgreSQL answers (postgresReachable) cannot go on without it.
 */
export async function testDatabase(t: TestTeardown): Promise<TestPostgres> {
  const pg = await createTestPostgres();
  if (!pg) throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} refused to create a test database`);
  t.teardown(() => pg.drop());
  return pg;
}

/** A connection pool to the PostgreSQL database at `url` (a test's own), closed when the test ends. */
export function postgresClient(t: TestTeardown, url: string): Knex {
  const db = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
  t.teardown(() => db.destroy());
  return db;
}

/** The names of `table`'s indexes in the PostgreSQL database at `url`, sorted: its primary key's among them. */
export async function postgresIndexes(url: string, table: string): Promise<string[]> {
  const db = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    return await db('pg_indexes').where({ tablename: table }).orderBy('indexname').pluck('indexname');
  } finally {
    await db.destroy();
  }
}

/**
 * A TCP proxy in front of the test server, closed after the test: connect through `proxy.url(pg.url)`, and `cut()` for
 * an outage.
 */
export async function postgresProxy(t: TestTeardown): Promise<TcpProxy> {
  const target = new URL(POSTGRES_ADMIN_URL);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  t.teardown(() => proxy.close());
  return proxy;
}

/**
 * Whether the PostgreSQL server accepts TCP connections, answered synchronously so a test file can
 * choose `test` or `test.skip` while it declares its tests (ava wants them declared synchronously).
 * With VELA_REQUIRE_POSTGRES=1 the answer is always yes: the test then runs and fails loudly.
 */
export function postgresReachable(): boolean {
  if (process.env.VELA_REQUIRE_POSTGRES === '1') return true;
  const url = new URL(POSTGRES_ADMIN_URL);
  const probe = `const s = require('node:net').connect(${Number(url.port || 5432)}, ${JSON.stringify(url.hostname)});
    s.on('connect', () => process.exit(0)); s.on('error', () => process.exit(1)); setTimeout(() => process.exit(1), 2000);`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore', timeout: 5000 }).status === 0;
}
