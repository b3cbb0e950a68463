// `vela pack`: a plugin folder as an archive in the `npm pack` layout, carrying the npm packages the
// plugin needs and the host does not share (bundle-dependencies.ts).
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type BundlePlan, type PackageJson, planBundle, readPackageJson } from './bundle-dependencies.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';
import { packedFiles } from './pack-files.js';
import { type TarFile, writeTarGz } from './tar-gz.js';

/** Read first by the loader, which takes the manifest from an archive without unpacking the rest. */
const LEADING = [MANIFEST_FILE, 'package.json'];

/**
 * Pack a plugin folder the way `npm pack` does (files under `package/`), for `vela pack`. The plugin's own
 * node_modules are not copied as they are: the archive holds the bundled dependencies and their closure
 * only, without what nothing runs (pack-files.ts), and its package.json lists the bundled ones in
 * `bundleDependencies`. Unchanged sources give the same archive: files in a fixed order, with their own times.
 */
export async function packPlugin(pluginDir: string, outDir: string): Promise<string> {
  const manifest = readManifest(path.join(pluginDir, MANIFEST_FILE));
  const out = path.join(outDir, `${manifest.name}-${manifest.version}.tgz`);
  const pkg = readPackageJson(pluginDir);
  const plan = planBundle(pluginDir, pkg);
  const files: TarFile[] = (await packedFiles(pluginDir, plan.folders, plan.exclude)).map(({ at, from, stats }) => ({
    path: `package/${at}`,
    mode: stats.mode,
    mtime: stats.mtime,
    read: () => readFile(from),
  }));
  const written = pkg ? await archivePackageJson(pluginDir, pkg, plan) : null;
  if (written)
    files.splice(
      files.findIndex((file) => file.path === 'package/package.json'),
      1,
      written,
    );
  await mkdir(outDir, { recursive: true });
  await writeTarGz(out, leadingFirst(files));
  return out;
}

function leadingFirst(files: TarFile[]): TarFile[] {
  const rank = (file: TarFile) => {
    const at = LEADING.indexOf(file.path.slice('package/'.length));
    return at === -1 ? LEADING.length : at;
  };
  return files
    .map((file, i) => ({ file, i }))
    .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
    .map(({ file }) => file);
}

/** The plugin's package.json with `bundleDependencies` naming what the archive carries; null when it stays as it is. */
async function archivePackageJson(pluginDir: string, pkg: PackageJson, plan: BundlePlan): Promise<TarFile | null> {
  const declared = Object.hasOwn(pkg, 'bundleDependencies') || Object.hasOwn(pkg, 'bundledDependencies');
  if (plan.bundled.length === 0 && !declared) return null;
  const { bundleDependencies: _declared, bundledDependencies: _alias, ...rest } = pkg;
  const content = Buffer.from(
    `${JSON.stringify(plan.bundled.length > 0 ? { ...rest, bundleDependencies: plan.bundled } : rest, null, 2)}\n`,
  );
  const { mode, mtime } = await stat(path.join(pluginDir, 'package.json'));
  return { path: 'package/package.json', mode, mtime, read: async () => content };
}
