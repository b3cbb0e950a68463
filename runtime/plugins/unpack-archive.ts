// Plugin archives in the plugin cache, for the loader (discover.ts): described from their manifest first,
// unpacked only when selected.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { bootErrors } from '../errors.js';
import { readArchiveManifest } from './archive-manifest.js';
import { MANIFEST_FILE, type PluginDescriptor, parseManifest, readManifest } from './manifest.js';
import { stagingFolder } from './plugin-cache.js';

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** npm pack puts files under `package/`; a plain tarball of the folder is accepted too. */
function pluginRootIn(dir: string): string | null {
  if (existsSync(path.join(dir, MANIFEST_FILE))) return dir;
  const nested = path.join(dir, 'package');
  if (existsSync(path.join(nested, MANIFEST_FILE))) return nested;
  return null;
}

/**
 * An archive's descriptor, its manifest checked, without unpacking it: its content goes to
 * `<cacheDir>/<name>-<version>-<hash>` (unpackArchive). The key includes the content hash, so a rebuilt
 * archive with the same version never runs stale code; an archive unpacked before is read from there.
 */
export async function describeArchive(archive: string, cacheDir: string): Promise<PluginDescriptor> {
  const hash = (await sha256(archive)).slice(0, 16);
  const cached = existsSync(cacheDir)
    ? (await readdir(cacheDir)).find((entry) => entry.endsWith(`-${hash}`))
    : undefined;
  const cachedRoot = cached ? pluginRootIn(path.join(cacheDir, cached)) : null;
  if (cached && cachedRoot) {
    const manifestFile = path.join(cachedRoot, MANIFEST_FILE);
    const cacheFolder = path.join(cacheDir, cached);
    return {
      manifest: readManifest(manifestFile),
      dir: cachedRoot,
      manifestFile,
      origin: { kind: 'archive', path: archive, cacheFolder },
    };
  }
  const { root, text } = await readArchiveManifest(archive);
  const manifest = parseManifest(text, `${archive} (${path.posix.join(root, MANIFEST_FILE)})`);
  const cacheFolder = path.join(cacheDir, `${manifest.name}-${manifest.version}-${hash}`);
  const dir = path.join(cacheFolder, root);
  return {
    manifest,
    dir,
    manifestFile: path.join(dir, MANIFEST_FILE),
    origin: { kind: 'archive', path: archive, cacheFolder },
  };
}

/**
 * Unpack a described archive into its cache folder, unless it is there already. It is unpacked into a
 * staging folder of this process first and renamed, so a start killed meanwhile leaves no half folder in
 * its place (plugin-cache.ts removes the staging folder later), and processes starting together from one
 * data folder (`vela start --workers`) each keep a whole folder: the first rename wins.
 */
export async function unpackArchive(descriptor: PluginDescriptor): Promise<void> {
  const { origin } = descriptor;
  if (origin.kind !== 'archive' || existsSync(descriptor.manifestFile)) return;
  const staging = stagingFolder(origin.cacheFolder);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await tar.x({ file: origin.path, cwd: staging, strict: true });
    if (!existsSync(path.join(staging, path.relative(origin.cacheFolder, descriptor.manifestFile)))) {
      throw bootErrors.manifestInvalid(
        origin.path,
        `no longer holds ${MANIFEST_FILE} where it was read: the archive changed while the runtime started`,
      );
    }
    await rename(staging, origin.cacheFolder).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(descriptor.manifestFile)) throw error;
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'E_MANIFEST_INVALID') throw error;
    throw bootErrors.manifestInvalid(
      origin.path,
      `cannot be unpacked into ${origin.cacheFolder} (${(error as Error).message})`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
