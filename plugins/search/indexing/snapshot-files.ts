import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * 2 since the change log is commit-ordered on PostgreSQL. A version-1 manifest may claim changes its
 * indexer skipped there (a seq that committed after a higher one), so it is not trusted: its engines are
 * rebuilt from the stored documents once, which brings such documents back.
 */
const MANIFEST_VERSION = 2;

export interface SnapshotManifest {
  version: typeof MANIFEST_VERSION;
  /** Every change up to this sequence number is in the snapshots. */
  seq: number;
  engines: Array<{ siteId: string; locale: string; indexKey: string; file: string }>;
}

/** Snapshot files of the engines: one file each plus a manifest, each written to a temp file and renamed. */
export class SnapshotFiles {
  constructor(private readonly dir: string) {}

  async readManifest(): Promise<SnapshotManifest | null> {
    const file = path.join(this.dir, 'manifest.json');
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

  async write(engines: Array<{ siteId: string; locale: string; indexKey: string; data: Buffer }>, seq: number): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const manifest: SnapshotManifest = { version: MANIFEST_VERSION, seq, engines: [] };
    for (const engine of engines) {
      const file = `${engine.siteId}_${engine.locale}.snap`;
      await atomicWrite(path.join(this.dir, file), engine.data);
      manifest.engines.push({ siteId: engine.siteId, locale: engine.locale, indexKey: engine.indexKey, file });
    }
    await atomicWrite(path.join(this.dir, 'manifest.json'), Buffer.from(JSON.stringify(manifest, null, 1)));
  }

  async remove(siteId: string, locale: string): Promise<void> {
    await rm(path.join(this.dir, `${siteId}_${locale}.snap`), { force: true });
  }
}

async function atomicWrite(file: string, data: Buffer): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}
