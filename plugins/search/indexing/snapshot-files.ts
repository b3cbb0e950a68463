import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from 'vela/plugin';

/**
 * 2 since the change log is commit-ordered on PostgreSQL. A version-1 manifest may claim changes its
 * indexer skipped there (a seq that committed after a higher one), so it is not trusted: its engines are
 * rebuilt from the stored documents once, which brings such documents back.
 */
const MANIFEST_VERSION = 2;
const MANIFEST = 'manifest.json';
const MANIFEST_LOCK = 'manifest.lock';
/** The manifest step takes milliseconds: a lock this old was left by a writer that died in it. */
const MANIFEST_LOCK_STALE_MS = 10_000;

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
 * A writer that finds a newer manifest leaves it (that step is exclusive among writers: `manifest.lock`).
 * Only the lease holder writes in a running cluster (SnapshotLease); the rest is for the overlaps a lease
 * cannot exclude (a holder taken over while it still writes).
 */
export class SnapshotFiles {
  /**
   * @param lease who may write: only its holder snapshots, removes and prunes (see SnapshotLease). Without
   * one, every caller writes (tools and tests that own the folder alone).
   */
  constructor(
    private readonly dir: string,
    private readonly lease?: SnapshotLease,
  ) {}

  /** Whether this process may write the folder now: it holds the lease, or takes it (free, or its holder is gone). */
  mayWrite(): Promise<boolean> {
    return this.lease ? this.lease.hold() : Promise.resolve(true);
  }

  /** Let another process take the lease (at stop, after the last snapshot). */
  async release(): Promise<void> {
    await this.lease?.release();
  }

  async readManifest(): Promise<SnapshotManifest | null> {
    const file = path.join(this.dir, MANIFEST);
    if (!existsSync(file)) return null;
    try {
      const manifest = JSON.parse(await readFile(file, 'utf8')) as SnapshotManifest;
      return manifest.version === MANIFEST_VERSION && Number.isInteger(manifest.seq) && Array.isArray(manifest.engines)
        ? manifest
        : null;
    } catch {
      return null;
    }
  }

  async read(file: string): Promise<Buffer | null> {
    const full = path.join(this.dir, path.basename(file));
    return existsSync(full) ? readFile(full) : null;
  }

  /** Write the engines as of `seq`; false when a newer snapshot was there already (it stays). */
  async write(
    engines: Array<{ siteId: string; locale: string; indexKey: string; data: Buffer }>,
    seq: number,
  ): Promise<boolean> {
    await mkdir(this.dir, { recursive: true });
    const manifest: SnapshotManifest = { version: MANIFEST_VERSION, seq, engines: [] };
    for (const engine of engines) {
      const file = `${engine.siteId}_${engine.locale}.${seq}.snap`;
      await atomicWrite(path.join(this.dir, file), engine.data);
      manifest.engines.push({ siteId: engine.siteId, locale: engine.locale, indexKey: engine.indexKey, file });
    }
    // Read, compare, replace and clean up as one step among writers: two interleaved, the older manifest
    // could win while the newer writer's clean-up removed the files it names.
    return this.exclusive(async () => {
      const current = await this.readManifest();
      const newer = current !== null && current.seq > seq;
      if (!newer) await atomicWrite(path.join(this.dir, MANIFEST), Buffer.from(JSON.stringify(manifest, null, 1)));
      await this.removeStale(newer ? current : manifest);
      return !newer;
    });
  }

  /** Run `fn` holding `manifest.lock` (a file created exclusively); one left by a killed writer goes after a while. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const lock = path.join(this.dir, MANIFEST_LOCK);
    for (let attempt = 0; ; attempt++) {
      try {
        await writeFile(lock, String(process.pid), { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const since = await stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (since > MANIFEST_LOCK_STALE_MS) await rm(lock, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt)));
      }
    }
    try {
      return await fn();
    } finally {
      await rm(lock, { force: true });
    }
  }

  /** Every snapshot of an engine (its site or locale is gone); the lease holder's job. */
  async remove(siteId: string, locale: string): Promise<void> {
    if (!(await this.mayWrite())) return;
    const prefix = `${siteId}_${locale}.`;
    for (const file of await this.files())
      if (file.startsWith(prefix)) await rm(path.join(this.dir, file), { force: true });
  }

  /** Files older than the manifest that it does not name (a newer one may be a writer's still to be named). */
  private async removeStale(manifest: SnapshotManifest): Promise<void> {
    const named = new Set(manifest.engines.map((e) => e.file));
    for (const file of await this.files())
      if (!named.has(file) && seqOf(file) < manifest.seq) await rm(path.join(this.dir, file), { force: true });
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

const LEASE_FILE = 'owner.lock';
/** A holder on another host is presumed gone when it has not renewed its lease for this long. */
const FOREIGN_LEASE_STALE_MS = 10 * 60_000;
/** Leases held by this process now (a test may run several runtimes in one process). */
const heldHere = new Set<string>();

interface LeaseHolder {
  id: string;
  pid: number;
  host: string;
}

/**
 * Which process writes a snapshot folder: the holder of its `owner.lock`. The workers of one machine
 * (`vela start --workers N`) share one folder: every worker starts from it, only the lease holder writes
 * it, and prunes the change log the snapshots cover. The lease is taken at the first snapshot by a process
 * allowed to own it (a group's owner worker, or a lone process), kept until that process stops, and taken
 * over when its holder is gone: a dead pid on this host, or no renewal for ten minutes from another host
 * sharing the folder. On SIGHUP the retiring owner writes its last snapshot and releases; its replacement
 * takes the lease at its next snapshot. Files stay sound even if two writers ever overlap (SnapshotFiles).
 */
export class SnapshotLease {
  private readonly me: LeaseHolder = { id: randomUUID(), pid: process.pid, host: os.hostname() };
  private readonly file: string;

  /** @param mayOwn false for a worker that never writes (only reads the folder at start). */
  constructor(
    dir: string,
    private readonly mayOwn = true,
  ) {
    this.file = path.join(dir, LEASE_FILE);
  }

  /** Whether this process holds the lease now, taking it when it is free or its holder is gone. */
  async hold(): Promise<boolean> {
    if (!this.mayOwn) return false;
    const holder = await this.holder();
    if (holder?.id === this.me.id) {
      // Renewed, so that a process on another host sharing the folder does not take it over.
      await utimes(this.file, new Date(), new Date()).catch(() => undefined);
      return true;
    }
    heldHere.delete(this.me.id);
    if (holder && !(await this.isStale(holder))) return false;
    if (holder) {
      // Moved aside, not deleted: of two processes taking over the same stale lease, one moves it.
      const aside = `${this.file}.${randomBytes(4).toString('hex')}.stale`;
      const moved = await rename(this.file, aside).then(
        () => true,
        () => false,
      );
      if (moved) await rm(aside, { force: true });
    }
    return this.create();
  }

  async release(): Promise<void> {
    heldHere.delete(this.me.id);
    if ((await this.holder())?.id === this.me.id) await rm(this.file, { force: true });
  }

  /** Written whole under another name, then linked: linking fails when the lease exists, so one creator wins. */
  private async create(): Promise<boolean> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, JSON.stringify(this.me));
    try {
      await link(temp, this.file);
      heldHere.add(this.me.id);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await rm(temp, { force: true });
    }
  }

  private async holder(): Promise<LeaseHolder | null> {
    try {
      const holder = JSON.parse(await readFile(this.file, 'utf8')) as LeaseHolder;
      return typeof holder.id === 'string' && Number.isInteger(holder.pid) && typeof holder.host === 'string'
        ? holder
        : { id: '', pid: 0, host: '' };
    } catch (error) {
      // Unreadable (not JSON): a holder that does not follow these rules; it is stale like any other.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : { id: '', pid: 0, host: '' };
    }
  }

  private async isStale(holder: LeaseHolder): Promise<boolean> {
    if (holder.host === this.me.host) {
      // This pid: a lease of this process that is not held any more (a runtime before a restart in a container, pid 1
      // again).
      if (holder.pid === process.pid) return !heldHere.has(holder.id);
      if (holder.pid > 0) return !processAlive(holder.pid);
    }
    const renewed = await stat(this.file).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    return Date.now() - renewed > FOREIGN_LEASE_STALE_MS;
  }
}
