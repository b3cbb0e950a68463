import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { SnapshotFiles, SnapshotLease } from '../indexing/snapshot-files.js';

const SITES = ['site-a', 'site-b', 'site-c'];

/** Each engine's data says which writer wrote it at which seq, so a mix-up shows. */
const engines = (writer: string, seq: number) =>
  SITES.map((siteId) => ({ siteId, locale: 'en_US', indexKey: 'k', data: Buffer.from(`${writer}:${siteId}:${seq}`) }));

function folder(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-snapshots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file the manifest names holds its engine at exactly the manifest's seq (or is gone: rebuilt then). */
async function consistent(files: SnapshotFiles): Promise<{ seq: number; held: string[] }> {
  const manifest = await files.readManifest();
  if (!manifest) throw new Error('no manifest');
  const held: string[] = [];
  for (const engine of manifest.engines) {
    const data = await files.read(engine.file);
    if (data === null) continue;
    const [, siteId, seq] = data.toString().split(':');
    if (siteId !== engine.siteId || Number(seq) !== manifest.seq)
      throw new Error(`${engine.file} holds ${data} under a manifest at seq ${manifest.seq}`);
    held.push(engine.siteId);
  }
  return { seq: manifest.seq, held };
}

test('a write at a lower seq than the manifest leaves the newer snapshot in place', async (t) => {
  const dir = folder(t);
  const replacement = new SnapshotFiles(dir);
  const retiring = new SnapshotFiles(dir);
  t.true(await replacement.write(engines('new', 12), 12));
  // The worker being replaced snapshots at stop, behind its replacement.
  t.false(await retiring.write(engines('old', 10), 10));
  t.deepEqual(await consistent(replacement), { seq: 12, held: SITES });
  t.deepEqual(
    readdirSync(dir)
      .filter((f) => f.endsWith('.snap'))
      .sort(),
    SITES.map((s) => `${s}_en_US.12.snap`),
    'the older files are gone',
  );
});

test('two processes snapshotting one folder at once never leave a manifest naming a file of another seq, nor temp files', async (t) => {
  const dir = folder(t);
  const a = new SnapshotFiles(dir);
  const b = new SnapshotFiles(dir);
  for (let round = 1; round <= 25; round++) {
    // Interleaved in every order the event loop gives: A ahead on odd rounds, B on even ones.
    const [ahead, behind] = round % 2 ? [a, b] : [b, a];
    await Promise.all([
      ahead.write(engines('ahead', round * 10 + 5), round * 10 + 5),
      behind.write(engines('behind', round * 10), round * 10),
    ]);
    // Whichever manifest won the race, it names only files of its own seq.
    const state = await consistent(a);
    t.true([round * 10, round * 10 + 5].includes(state.seq), `round ${round}: seq ${state.seq}`);
  }
  const final = await consistent(b);
  t.deepEqual(final.held, SITES, 'the last round left a complete snapshot');
  t.false(
    readdirSync(dir).some((f) => f.endsWith('.tmp')),
    'no temp file left',
  );
});

test('an engine removed takes every snapshot of it; a manifest from before seqs were in file names still reads', async (t) => {
  const dir = folder(t);
  const files = new SnapshotFiles(dir);
  await files.write(engines('w', 3), 3);
  await files.remove('site-b', 'en_US');
  t.deepEqual(
    readdirSync(dir)
      .filter((f) => f.startsWith('site-b'))
      .sort(),
    [],
  );
  t.deepEqual(
    (await consistent(files)).held,
    ['site-a', 'site-c'],
    'a file the manifest names but is gone is rebuilt, not an error',
  );
  t.is(await files.read('../../etc/passwd'), null, 'only files of the folder');
});

const snaps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.snap'));

test('only the lease holder writes the folder: the other process neither snapshots nor removes, and takes over once the holder releases', async (t) => {
  const dir = folder(t);
  const owner = new SnapshotFiles(dir, new SnapshotLease(dir));
  const other = new SnapshotFiles(dir, new SnapshotLease(dir));
  const reader = new SnapshotFiles(dir, new SnapshotLease(dir, false));
  t.true(await owner.mayWrite());
  t.true(await owner.mayWrite(), 'held, not taken anew');
  t.false(await other.mayWrite());
  t.false(await reader.mayWrite());
  t.true(await owner.write(engines('owner', 4), 4));
  await other.remove('site-a', 'en_US');
  t.true(snaps(dir).includes('site-a_en_US.4.snap'), 'a remove by a process without the lease changes nothing');
  t.deepEqual((await consistent(reader)).held, SITES, 'every process reads the holder snapshot');

  // A retiring owner releases after its last snapshot: the next process allowed to own takes the lease.
  await owner.release();
  t.false(await reader.mayWrite(), 'a worker that may not own never takes it');
  t.true(await other.mayWrite());
  t.false(await owner.mayWrite(), 'the old holder does not take it back while the new one holds it');
  t.true(await other.write(engines('other', 9), 9));
  t.deepEqual(await consistent(reader), { seq: 9, held: SITES });
});

test('a lease whose holder is gone is taken over: a dead process on this host, this process before a restart, or another host that stopped renewing', async (t) => {
  const dir = folder(t);
  const lockFile = path.join(dir, 'owner.lock');
  const host = os.hostname();
  // A process that has exited: its pid is free.
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  for (const holder of [
    { id: 'gone', pid: dead, host },
    // The same pid as this process (pid 1 in a container after a restart), but not a lease this process holds.
    { id: 'before-restart', pid: process.pid, host },
  ]) {
    writeFileSync(lockFile, JSON.stringify(holder));
    const lease = new SnapshotLease(dir);
    t.true(await lease.hold(), JSON.stringify(holder));
    await lease.release();
    t.false(existsSync(lockFile));
  }

  // Another host sharing the folder: its lease stands while renewed, and is taken after ten quiet minutes.
  writeFileSync(lockFile, JSON.stringify({ id: 'far', pid: 1, host: `not-${host}` }));
  const lease = new SnapshotLease(dir);
  t.false(await lease.hold());
  const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
  utimesSync(lockFile, elevenMinutesAgo, elevenMinutesAgo);
  t.true(await lease.hold());
  // A live process on this host (this test's parent) keeps its lease.
  writeFileSync(lockFile, JSON.stringify({ id: 'alive', pid: process.ppid, host }));
  t.false(await lease.hold(), 'the lease was taken by a live holder: this one stops writing');
  t.false(
    readdirSync(dir).some((f) => f.endsWith('.tmp') || f.endsWith('.stale')),
    'no temp file left',
  );
});
