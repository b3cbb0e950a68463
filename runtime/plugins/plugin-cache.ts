// Housekeeping of the plugin cache (`<dataDir>/plugin-cache`), where the loader unpacks archives
// (unpack-archive.ts): what a killed start or an archive since replaced left there is removed.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { processAlive } from '../process-alive.js';
import type { PluginDescriptor } from './manifest.js';

const STAGING = /^\.staging-.+-(\d+)$/;
const UNPACKED = /^(.+)-[0-9a-f]{16}$/;

/** The folder this process unpacks `cacheFolder`'s archive into before renaming it. */
export function stagingFolder(cacheFolder: string): string {
  return path.join(path.dirname(cacheFolder), `.staging-${path.basename(cacheFolder)}-${process.pid}`);
}

/**
 * Remove from the cache the staging folders of processes that are gone (a start killed while unpacking),
 * and, for each plugin whose archive is on the loader path, the folders of its other archives (older
 * builds or versions). The cache of a plugin not on this loader path is left alone: another runtime on the
 * same data folder may load it.
 */
export async function tidyPluginCache(cacheDir: string, archives: PluginDescriptor[]): Promise<void> {
  if (!existsSync(cacheDir)) return;
  const current = new Set<string>();
  for (const { origin } of archives) if (origin.kind === 'archive') current.add(path.basename(origin.cacheFolder));
  const names = new Set(archives.map((descriptor) => descriptor.manifest.name));
  const stale = (await readdir(cacheDir)).filter((entry) => {
    const staging = STAGING.exec(entry);
    if (staging) return Number(staging[1]) !== process.pid && !processAlive(Number(staging[1]));
    return !current.has(entry) && replaced(entry, names);
  });
  // Best effort: a folder that cannot be removed now costs disk space, not a start.
  await Promise.all(
    stale.map((entry) => rm(path.join(cacheDir, entry), { recursive: true, force: true }).catch(() => undefined)),
  );
}

/** Whether `entry` is the unpacked folder (`<name>-<version>-<hash>`) of one of the plugins named. */
function replaced(entry: string, names: Set<string>): boolean {
  const unpacked = UNPACKED.exec(entry);
  if (!unpacked) return false;
  return [...names].some(
    (name) => unpacked[1]!.startsWith(`${name}-`) && semver.valid(unpacked[1]!.slice(name.length + 1)) !== null,
  );
}
