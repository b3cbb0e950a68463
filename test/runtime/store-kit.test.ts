import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { ChangeFeed, type ChangeListener, type Changes } from '../../runtime/changes/change-feed.js';
import type { RuntimeConfig } from '../../runtime/config/load-config.js';
import { VelaError } from '../../runtime/errors.js';
import { toErrorResponse } from '../../runtime/http/error-response.js';
import { createLogger, type Logger } from '../../runtime/logger.js';
import { CachedTable } from '../../runtime/storage/cached-table.js';
import { createDatabase, type Database } from '../../runtime/storage/database.js';
import { CorruptRowError, writeJson } from '../../runtime/storage/json-column.js';
import { col, rowCodec } from '../../runtime/storage/row-codec.js';
import { nowIso, toIso, toMillis } from '../../runtime/storage/row-values.js';
import { StoreRefresh } from '../../runtime/storage/store-refresh.js';
import { conflictError, isUniqueViolation, refuseDuplicate } from '../../runtime/storage/unique-conflict.js';
import { eventually } from '../../runtime/testing/eventually.js';
import { tempFolders } from '../../runtime/testing/temp-folders.js';
import { postgresReachable, testDatabase } from '../../runtime/testing/test-postgres.js';

const folders = tempFolders();
test.after.always(() => folders.removeAll());
const pgTest = postgresReachable() ? test : test.skip;
const silent = createLogger({ level: 'silent' });

type Dialect = 'sqlite' | 'postgres';

/** Two handles on one fresh database (two processes' pools), destroyed after the test; `url` for a change feed. */
async function twoHandles(
  t: ExecutionContext,
  dialect: Dialect,
): Promise<{ a: Database; b: Database; url: string | null }> {
  let url: string;
  if (dialect === 'postgres') url = (await testDatabase(t)).url;
  else url = `sqlite://${path.join(folders.make('store-kit'), 'vela.sqlite')}`;
  const open = () =>
    createDatabase(
      {
        dataDir: folders.make('store-kit-data'),
        database: { url, pool: { min: 0, max: 4 } },
      } as RuntimeConfig['runtime'],
      silent,
    );
  const a = open();
  const b = open();
  t.teardown(async () => {
    await a.destroy();
    await b.destroy();
  });
  await a.schema.createTable('kit_things', (table) => {
    table.string('id').primary();
    table.string('name').notNullable().unique();
    table.boolean('enabled').notNullable();
    table.text('settings').notNullable();
    table.string('created_at').notNullable();
    table.bigInteger('expires_at');
    table.timestamp('seen_at', { useTz: true });
  });
  return { a, b, url: dialect === 'postgres' ? url : null };
}

interface ThingRow {
  id: string;
  name: string;
  enabled: unknown;
  settings: unknown;
  created_at: unknown;
  expires_at: unknown;
  seen_at: unknown;
}

interface Thing {
  id: string;
  name: string;
  enabled: boolean;
  settings: { size: number };
  createdAt: string;
}

/** The store's one declaration of its rows: what reads them, what writes them, and what a CachedTable takes. */
const things = rowCodec<Thing, ThingRow>('kit_things', {
  id: 'id',
  name: 'name',
  enabled: col.bool('enabled'),
  settings: col.json('settings'),
  createdAt: col.timestamp('created_at'),
});
const fromRow = things.fromRow;

const thingRow = (id: string, name: string, extra: Partial<ThingRow> = {}) => ({
  ...things.toRow({ id, name, enabled: true, settings: { size: 1 }, createdAt: nowIso() }),
  ...extra,
});

/** The store's create: one insert, a duplicate name or id answered with the one 409. */
const create = (db: Database, id: string, name: string) =>
  refuseDuplicate(
    () => db('kit_things').insert(thingRow(id, name)),
    () => conflictError('a thing', 'name', name),
  );

/** A logger that keeps what was logged at warn and info. */
function recordingLogger(): { logger: Logger; warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger = {
    warn: (_fields: unknown, msg: string) => warnings.push(msg),
    info: (_fields: unknown, msg: string) => infos.push(msg),
    error: () => undefined,
    debug: () => undefined,
  } as unknown as Logger;
  return { logger, warnings, infos };
}

/**
 * Two processes' feeds relayed to each other, as the cluster primary does over IPC: what one publishes reaches
 * the other's subscribers with `local: false`. `drop` loses notices (a cut feed); `resync` is a feed coming back.
 */
function relayedFeeds(): { a: Changes; b: Changes; drop: (on: boolean) => void; resync: () => void } {
  const subscribers = [new Map<string, Set<ChangeListener>>(), new Map<string, Set<ChangeListener>>()];
  let dropping = false;
  const feed = (own: number): Changes => ({
    mode: 'cluster',
    async publish(channel, payload) {
      for (const fn of subscribers[own]!.get(channel) ?? []) fn(payload, { local: true, resync: false });
      if (dropping) return false;
      for (const fn of subscribers[1 - own]!.get(channel) ?? []) fn(payload, { local: false, resync: false });
      return true;
    },
    subscribe(channel, fn) {
      const set = subscribers[own]!.get(channel) ?? new Set();
      subscribers[own]!.set(channel, set);
      set.add(fn);
      return () => set.delete(fn);
    },
    ready: () => Promise.resolve(),
  });
  return {
    a: feed(0),
    b: feed(1),
    drop: (on) => {
      dropping = on;
    },
    resync: () => {
      for (const set of subscribers[1]!.values()) for (const fn of set) fn(undefined, { local: false, resync: true });
    },
  };
}

test('a row codec maps each field both ways; a patch writes only the fields it sets; a corrupt column names its row', (t) => {
  interface Note {
    id: string;
    text: string;
    tags: string[];
    pinned: boolean;
    seenAt: string | null;
    expiresAt: number;
    links: string[];
  }
  const notes = rowCodec<Note>('kit_notes', {
    id: 'id',
    text: col.text('body'),
    tags: col.json('tags'),
    pinned: col.bool('pinned'),
    seenAt: col.timestampOrNull('seen_at'),
    expiresAt: col.millis('expires_at'),
    links: col.json('links', []),
  });
  const row = {
    id: 'n1',
    body: null,
    tags: '["a"]',
    pinned: 1,
    seen_at: null,
    expires_at: '1800000000000',
    links: null,
  };
  t.deepEqual(notes.fromRow(row), {
    id: 'n1',
    text: '',
    tags: ['a'],
    pinned: true,
    seenAt: null,
    expiresAt: 1_800_000_000_000,
    links: [],
  });
  t.is(notes.keyOf(row), 'n1');
  t.deepEqual(notes.toColumns({ tags: ['b'], pinned: false, text: undefined, seenAt: null }), {
    tags: '["b"]',
    pinned: false,
    seen_at: null,
  });
  const error = t.throws(() => notes.fromRow({ ...row, id: 'n2', tags: '["a"' }), { instanceOf: CorruptRowError });
  t.deepEqual(error?.place, { table: 'kit_notes', column: 'tags', row: 'n2' });
});

for (const dialect of ['sqlite', 'postgres'] as const) {
  const each = dialect === 'postgres' ? pgTest : test;

  each(`${dialect}: booleans, timestamps and JSON columns read back as they were written`, async (t) => {
    const { a } = await twoHandles(t, dialect);
    const stamp = nowIso();
    const seen = new Date('2026-01-02T03:04:05.678Z');
    await a('kit_things').insert({
      ...thingRow('1', 'on'),
      created_at: stamp,
      expires_at: 1_800_000_000_000,
      seen_at: seen,
    });
    await a('kit_things').insert({ ...thingRow('2', 'off'), enabled: false });
    const rows = (await a('kit_things').select().orderBy('id')) as ThingRow[];
    const [on, off] = rows.map(fromRow);
    t.deepEqual(on, { id: '1', name: 'on', enabled: true, settings: { size: 1 }, createdAt: stamp });
    t.false(off!.enabled);
    t.is(toMillis(rows[0]!.expires_at), 1_800_000_000_000);
    // PostgreSQL answers a timestamp column with a Date, SQLite with what was written: one ISO string either way.
    t.is(toIso(rows[0]!.seen_at), seen.toISOString());
    t.is(toIso('2026-01-02 03:04:05'), '2026-01-02T03:04:05.000Z');
  });

  each(
    `${dialect}: a duplicate key is a 409 conflict naming the member, also for simultaneous creates from two handles`,
    async (t) => {
      const { a, b } = await twoHandles(t, dialect);
      await create(a, '1', 'alpha');
      const dup = await t.throwsAsync(create(b, '2', 'alpha'), { instanceOf: VelaError });
      t.deepEqual(toErrorResponse(dup).body, {
        error: 'conflict',
        message: 'a thing with name "alpha" already exists',
      });
      t.is(toErrorResponse(dup).status, 409);
      // The primary key too.
      await t.throwsAsync(create(b, '1', 'beta'), { instanceOf: VelaError, message: /already exists/ });
      // Six creates of one name at once, over two pools: one wins, the others are 409s, none is a 500.
      const outcomes = await Promise.allSettled(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => create(i % 2 ? a : b, `race-${id}`, 'gamma')),
      );
      t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      for (const o of outcomes.filter((o) => o.status === 'rejected'))
        t.like(
          (o as PromiseRejectedResult).reason,
          { code: 'conflict', status: 409 },
          String((o as PromiseRejectedResult).reason),
        );
      // Other constraints are not duplicates: a missing value stays the error it is.
      const notNull = await t.throwsAsync(
        refuseDuplicate(
          () => a('kit_things').insert({ id: '9', enabled: true, settings: '{}', created_at: nowIso() }),
          () => conflictError('a thing', 'id', '9'),
        ),
      );
      t.false(notNull instanceof VelaError);
      t.false(isUniqueViolation(notNull));
    },
  );

  each(
    `${dialect}: a corrupt JSON column is a corrupt_row 500 naming table, column and row; a cached table skips it with one warning`,
    async (t) => {
      const { a } = await twoHandles(t, dialect);
      await a('kit_things').insert(thingRow('good', 'good'));
      await a('kit_things').insert({ ...thingRow('bad', 'bad'), settings: '{"size": 1' });
      const row = (await a('kit_things').where({ id: 'bad' }).first()) as ThingRow;
      const error = t.throws(() => fromRow(row), { instanceOf: CorruptRowError });
      const answer = toErrorResponse(error);
      t.is(answer.status, 500);
      t.is(answer.body.error, 'corrupt_row');
      t.regex(answer.body.message, /row "bad" of table kit_things is corrupt: column settings is not valid JSON/);
      t.notRegex(answer.body.message, /Unexpected|position/);

      const { logger, warnings } = recordingLogger();
      const table = new CachedTable<ThingRow, Thing>({ db: a, ...things, logger });
      await table.load();
      await table.load();
      t.deepEqual(
        table.values().map((x) => x.id),
        ['good'],
      );
      t.is(warnings.length, 1, 'one warning, not one per reload');
      t.regex(warnings[0]!, /row "bad" of table kit_things/);
      await a('kit_things')
        .where({ id: 'bad' })
        .update({ settings: writeJson({ size: 2 }) });
      await table.load();
      t.deepEqual(table.get('bad')?.settings, { size: 2 });
    },
  );

  each(
    `${dialect}: a write announced by one process is reloaded by the other (and on SQLite: a resync reloads, a stopped refresh follows no more)`,
    async (t) => {
      const { a, b, url } = await twoHandles(t, dialect);
      let feedA: Changes;
      let feedB: Changes;
      let resync: (() => void) | null = null;
      if (url) {
        const realA = new ChangeFeed(() => a, url, silent);
        const realB = new ChangeFeed(() => b, url, silent);
        t.teardown(async () => {
          await realA.close();
          await realB.close();
        });
        feedA = realA;
        feedB = realB;
      } else {
        const relay = relayedFeeds();
        feedA = relay.a;
        feedB = relay.b;
        resync = relay.resync;
      }
      const tableB = new CachedTable<ThingRow, Thing>({ db: b, ...things, logger: silent });
      let reloads = 0;
      const refreshB = new StoreRefresh({
        what: 'things',
        channels: ['kit.things'],
        changes: feedB,
        pollMs: 0,
        logger: silent,
        reload: async () => {
          reloads += 1;
          await tableB.load();
        },
      });
      const refreshA = new StoreRefresh({
        what: 'things',
        channels: ['kit.things'],
        changes: feedA,
        pollMs: 0,
        logger: silent,
        reload: async () => undefined,
      });
      refreshB.start();
      t.teardown(() => refreshB.stop());
      await Promise.all([feedA.ready(), feedB.ready()]);
      await tableB.load();

      await create(a, '1', 'one');
      t.true(await refreshA.announce({ id: '1' }));
      await eventually(() => tableB.has('1'), 'the other process reloading on the notice');

      if (resync) {
        await a('kit_things').insert(thingRow('2', 'two'));
        resync();
        await eventually(() => tableB.has('2'), 'a reload on resync');
        // The relay delivers at once, so a notice after the stop that reloaded would show here.
        refreshB.stop();
        const before = reloads;
        await create(a, '3', 'three');
        await refreshA.announce();
        t.is(reloads, before);
        t.false(tableB.has('3'));
      }
    },
  );

  each(`${dialect}: when notices are lost the poll picks the write up`, async (t) => {
    const { a, b } = await twoHandles(t, dialect);
    const relay = relayedFeeds();
    relay.drop(true);
    const tableB = new CachedTable<ThingRow, Thing>({ db: b, ...things, logger: silent });
    const refreshB = new StoreRefresh({
      what: 'things',
      channels: ['kit.things'],
      changes: relay.b,
      pollMs: 20,
      logger: silent,
      reload: () => tableB.load(),
    });
    refreshB.start();
    t.teardown(() => refreshB.stop());
    await create(a, '1', 'one');
    t.false(await relay.a.publish('kit.things'), 'the notice is lost');
    await eventually(() => tableB.has('1'), 'the poll reloading');
  });
}

test('a failing reload is logged once, not per attempt, and its recovery once', async (t) => {
  const { logger, warnings, infos } = recordingLogger();
  let fail = true;
  let calls = 0;
  const refresh = new StoreRefresh({
    what: 'things',
    channels: ['kit.things'],
    pollMs: 0,
    logger,
    reload: async () => {
      calls += 1;
      if (fail) throw new Error('database down');
    },
  });
  for (let i = 0; i < 5; i++) t.false(await refresh.refresh());
  t.is(calls, 5);
  t.deepEqual(warnings, ['refreshing things from the database failed; retrying at each notice and poll']);
  fail = false;
  t.true(await refresh.refresh());
  t.true(infos.includes('refreshing things from the database works again'));
  t.true(
    warnings.some((w) => /4 more left out of the log/.test(w)),
    'the attempts left out are counted',
  );
  refresh.stop();
});

test('reloads never overlap: notices during a reload run one more after it', async (t) => {
  let active = 0;
  let most = 0;
  let calls = 0;
  let release: () => void = () => undefined;
  const refresh = new StoreRefresh({
    what: 'things',
    channels: ['kit.things'],
    pollMs: 0,
    logger: silent,
    reload: async () => {
      calls += 1;
      active += 1;
      most = Math.max(most, active);
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      active -= 1;
    },
  });
  const first = refresh.refresh();
  const second = refresh.refresh();
  const third = refresh.refresh();
  release();
  await Promise.all([first, second, third]);
  t.is(calls, 2);
  t.is(most, 1);
});

test('a notice whose payload carries the change is applied without a reload (once, however often start was called)', async (t) => {
  const relay = relayedFeeds();
  const applied: unknown[] = [];
  let reloads = 0;
  const refresh = new StoreRefresh({
    what: 'tokens',
    channels: ['kit.tokens'],
    changes: relay.b,
    pollMs: 0,
    logger: silent,
    reload: async () => {
      reloads += 1;
    },
    apply: (_channel, payload) => {
      const revoked = (payload as { revoked?: string[] } | undefined)?.revoked;
      if (!revoked) return false;
      applied.push(...revoked);
      return true;
    },
  });
  refresh.start();
  refresh.start();
  await relay.a.publish('kit.tokens', { revoked: ['h1'] });
  t.deepEqual(applied, ['h1']);
  t.is(reloads, 0);
  await relay.a.publish('kit.tokens', { sync: true });
  await refresh.refresh();
  t.true(reloads >= 1);
  refresh.stop();
});
