import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { bootErrors, VelaError } from '../errors.js';
import { describeArchive, unpackArchive } from './archive.js';
import { MANIFEST_FILE, type PluginDescriptor, readManifest } from './manifest.js';
import { tidyPluginCache } from './plugin-cache.js';

interface ScanProblem {
  path: string;
  message: string;
}

interface ScanResult {
  plugins: PluginDescriptor[];
  problems: ScanProblem[];
}

/**
 * Find plugins on the loader path: each entry is a folder of plugin folders and .tgz archives,
 * or a single plugin folder, or a single archive. Only manifests are read (an archive's from the archive
 * itself): no plugin code runs and no archive is unpacked; `unpackSelected` unpacks those a start loads.
 * With `strict`, the first problem throws (start); otherwise problems are collected (`vela plugins`).
 */
export async function scanLoaderPath(loaderPath: string[], cacheDir: string, strict = true): Promise<ScanResult> {
  const plugins: PluginDescriptor[] = [];
  const problems: ScanProblem[] = [];
  const seen = new Map<string, PluginDescriptor>();

  const add = async (candidate: string, load: () => Promise<PluginDescriptor>) => {
    try {
      const descriptor = await load();
      const other = seen.get(descriptor.manifest.name);
      if (other) throw bootErrors.pluginDuplicate(descriptor.manifest.name, other.origin.path, descriptor.origin.path);
      seen.set(descriptor.manifest.name, descriptor);
      plugins.push(descriptor);
    } catch (error) {
      if (strict || !(error instanceof VelaError)) throw error;
      problems.push({ path: candidate, message: error.message });
    }
  };

  for (const entry of loaderPath) {
    if (!existsSync(entry)) {
      const error = bootErrors.manifestInvalid(entry, 'loader path entry does not exist');
      if (strict) throw error;
      problems.push({ path: entry, message: error.message });
      continue;
    }
    for (const candidate of await candidatesIn(entry)) {
      await add(candidate, () =>
        candidate.endsWith('.tgz') ? describeArchive(candidate, cacheDir) : Promise.resolve(fromFolder(candidate)),
      );
    }
  }
  await tidyPluginCache(
    cacheDir,
    plugins.filter((descriptor) => descriptor.origin.kind === 'archive'),
  );
  return { plugins, problems };
}

/** Unpack the archives among the plugins a start loads into the plugin cache (those unpacked before are reused). */
export async function unpackSelected(selected: PluginDescriptor[]): Promise<PluginDescriptor[]> {
  for (const descriptor of selected) await unpackArchive(descriptor);
  return selected;
}

async function candidatesIn(entry: string): Promise<string[]> {
  if (statSync(entry).isFile()) return entry.endsWith('.tgz') ? [entry] : [];
  if (existsSync(path.join(entry, MANIFEST_FILE))) return [entry];
  const children = (await readdir(entry, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const child of children) {
    const full = path.join(entry, child.name);
    if (child.isFile() && child.name.endsWith('.tgz')) out.push(full);
    // A sub-folder without a manifest (node_modules, a README folder) is not a plugin and is passed over.
    else if (child.isDirectory() && existsSync(path.join(full, MANIFEST_FILE))) out.push(full);
  }
  return out;
}

function fromFolder(dir: string): PluginDescriptor {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  return { manifest: readManifest(manifestFile), dir, manifestFile, origin: { kind: 'folder', path: dir } };
}
