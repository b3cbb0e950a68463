import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * 2 since the change log is commit-ordered on PostgreSQL. A version-1 manifest may claim changes its
 * indexer skipped there (a seq that committed after a higher one), so it is not trusted: its engines are
 * rebuilt from the stored documents once, which brings such documents back.
 */
const MANIFEST_VERSION = 2;
const MANIFEST = 'manifest.json';

export interface SnapshotManifest {
  version: typeof MANIFEST_VERSION;
  /** Every change up to this sequence number is in the snapshots. */
  seq: number;
  engines: Array<{ siteId: string; locale: string; indexKey: string; file: string }>;
}

/** `<site>_<locale>.<seq>.snap`; a name without the seq (written before seqs were in names) counts as -1. */
const SNAP_NAME = /^(.+)\.(\d+)\.snap$/;
const seqOf = (file: string) => Number(SNAP_NAME.exec(file)?.[2] ?? -1);

/**
 * Snapshot files of the engines: one file each plus a manifest naming them, each written to a temp file and
 * renamed. Several processes may write the same folder at once (a worker being replaced on SIGHUP stops,
 * and snapshots, while its replacement runs; two runtimes sharing a data folder), so a file's name carries
 * the seq its engine holds: a manifest names only files holding exactly its seq, whoever wrote them, or
 * files since removed, which the indexer rebuilds from the stored documents (never a file of another seq).
 * A writer that finds a newer manifest leaves it; two writes racing may still leave the older one, which is
 * as sound, only further behind (a restart replays more, or rebuilds when the log was pruned past it).
 */
export class SnapshotFiles {
  constructor(private readonly dir: string) {}

  async readManifest(): Promise<SnapshotManifest | null> {
    const file = path.join(this.dir, MANIFEST);
    if (!existsSync(file)) return null;
    try {
      const manifest = JSON.parse(await readFile(file, 'utf8')) as SnapshotManifest;
      return manifest.version === MANIFEST_VERSION && Number.isInteger(manifest.seq) && Array.isArray(manifest.engines) ? manifest : null;
    } catch {
      return null;
    }
  }

  async read(file: string): Promise<Buffer | null> {
    const full = path.join(this.dir, path.basename(file));
    return existsSync(full) ? readFile(full) : null;
  }

  /** Write the engines as of `seq`; false when a newer snapshot was there already (it stays). */
  async write(engines: Array<{ siteId: string; locale: string; indexKey: string; data: Buffer }>, seq: number): Promise<boolean> {
    await mkdir(this.dir, { recursive: true });
    const manifest: SnapshotManifest = { version: MANIFEST_VERSION, seq, engines: [] };
    for (const engine of engines) {
      const file = `${engine.siteId}_${engine.locale}.${seq}.snap`;
      await atomicWrite(path.join(this.dir, file), engine.data);
      manifest.engines.push({ siteId: engine.siteId, locale: engine.locale, indexKey: engine.indexKey, file });
    }
    const current = await this.readManifest();
    const newer = current !== null && current.seq > seq;
    if (!newer) await atomicWrite(path.join(this.dir, MANIFEST), Buffer.from(JSON.stringify(manifest, null, 1)));
    await this.removeStale(newer ? current : manifest);
    return !newer;
  }

  /** Every snapshot of an engine (its site or locale is gone). */
  async remove(siteId: string, locale: string): Promise<void> {
    const prefix = `${siteId}_${locale}.`;
    for (const file of await this.files()) if (file.startsWith(prefix)) await rm(path.join(this.dir, file), { force: true });
  }

  /** Files older than the manifest that it does not name (a newer one may be a writer's still to be named). */
  private async removeStale(manifest: SnapshotManifest): Promise<void> {
    const named = new Set(manifest.engines.map((e) => e.file));
    for (const file of await this.files()) if (!named.has(file) && seqOf(file) < manifest.seq) await rm(path.join(this.dir, file), { force: true });
  }

  private async files(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((f) => f.endsWith('.snap'));
    } catch {
      return [];
    }
  }
}

async function atomicWrite(file: string, data: Buffer): Promise<void> {
  // Two writers of one name (each at the same seq) each rename their own temp file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}
