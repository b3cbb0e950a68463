// Unpacking a plugin archive into the plugin cache, for the loader (discover.ts).
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { bootErrors } from '../errors.js';
import { MANIFEST_FILE, type PluginManifest, readManifest } from './manifest.js';

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** npm pack puts files under `package/`; a plain tarball of the folder is accepted too. */
async function pluginRootIn(dir: string): Promise<string | null> {
  if (existsSync(path.join(dir, MANIFEST_FILE))) return dir;
  const nested = path.join(dir, 'package');
  if (existsSync(path.join(nested, MANIFEST_FILE))) return nested;
  return null;
}

/**
 * Unpack a plugin archive into `<cacheDir>/<name>-<version>-<hash>` once, and return the folder
 * holding its manifest. The key includes the content hash, so a rebuilt archive with the same
 * version never runs stale code.
 */
export async function unpackArchive(archive: string, cacheDir: string): Promise<string> {
  const hash = (await sha256(archive)).slice(0, 16);
  await mkdir(cacheDir, { recursive: true });
  const cached = (await readdir(cacheDir)).find((entry) => entry.endsWith(`-${hash}`));
  if (cached) {
    const root = await pluginRootIn(path.join(cacheDir, cached));
    if (root) return root;
  }
  const staging = path.join(cacheDir, `.staging-${hash}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await tar.x({ file: archive, cwd: staging, strict: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw bootErrors.manifestInvalid(archive, `is not a readable .tgz archive (${(error as Error).message})`);
  }
  const root = await pluginRootIn(staging);
  if (!root) {
    await rm(staging, { recursive: true, force: true });
    throw bootErrors.manifestInvalid(archive, `holds no ${MANIFEST_FILE} (looked at the top and under package/)`);
  }
  let manifest: PluginManifest;
  try {
    manifest = readManifest(path.join(root, MANIFEST_FILE));
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const problem = (error as Error).message.slice((error as Error).message.indexOf(': ') + 2);
    throw bootErrors.manifestInvalid(`${archive} (${MANIFEST_FILE})`, problem);
  }
  const finalDir = path.join(cacheDir, `${manifest.name}-${manifest.version}-${hash}`);
  await rm(finalDir, { recursive: true, force: true });
  await rename(staging, finalDir);
  return path.join(finalDir, path.relative(staging, root));
}
