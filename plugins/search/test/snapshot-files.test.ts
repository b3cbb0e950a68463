import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { SnapshotFiles } from '../indexing/snapshot-files.js';

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
    if (siteId !== engine.siteId || Number(seq) !== manifest.seq) throw new Error(`${engine.file} holds ${data} under a manifest at seq ${manifest.seq}`);
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
    await Promise.all([ahead.write(engines('ahead', round * 10 + 5), round * 10 + 5), behind.write(engines('behind', round * 10), round * 10)]);
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
  t.deepEqual((await consistent(files)).held, ['site-a', 'site-c'], 'a file the manifest names but is gone is rebuilt, not an error');
  t.is(await files.read('../../etc/passwd'), null, 'only files of the folder');
});
