// `vela pack`: a plugin folder as an archive in the `npm pack` layout, carrying the npm packages the
// plugin needs and the host does not share (bundle-dependencies.ts).
import { copyFile, cp, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { type BundlePlan, type PackageJson, planBundle, readPackageJson } from './bundle-dependencies.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';

/**
 * Pack a plugin folder the way `npm pack` does (files under `package/`), for `vela pack`. The plugin's own
 * node_modules are not copied as they are: the archive holds the bundled dependencies and their closure
 * only, and its package.json lists the bundled ones in `bundleDependencies`.
 */
export async function packPlugin(pluginDir: string, outDir: string): Promise<string> {
  const manifest = readManifest(path.join(pluginDir, MANIFEST_FILE));
  const out = path.join(outDir, `${manifest.name}-${manifest.version}.tgz`);
  const pkg = readPackageJson(pluginDir);
  const plan = planBundle(pluginDir, pkg);
  await mkdir(outDir, { recursive: true });
  // The archive's tree is assembled in a staging folder: the files come from the plugin folder and from
  // package folders elsewhere, and its package.json differs from the plugin's.
  const staging = await mkdtemp(path.join(os.tmpdir(), 'vela-pack-'));
  try {
    for (const file of await listPluginFiles(pluginDir)) await copyWithTimes(path.join(pluginDir, file), path.join(staging, file));
    for (const folder of plan.folders) await copyPackageFolder(folder.from, path.join(staging, ...folder.at.split('/')));
    if (pkg) await writeArchivePackageJson(pluginDir, staging, pkg, plan);
    await tar.c({ gzip: true, file: out, cwd: staging, portable: true, prefix: 'package/' }, await listFiles(staging));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return out;
}

/** Everything in the folder but tests, dependencies and VCS metadata, in a stable order. */
async function listPluginFiles(root: string, rel = ''): Promise<string[]> {
  const skip = new Set(['node_modules', '.git', 'test', 'coverage']);
  const out: string[] = [];
  const entries = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (skip.has(entry.name) || entry.name.endsWith('.tgz')) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listPluginFiles(root, child)));
    else if ((await stat(path.join(root, child))).isFile()) out.push(child);
  }
  return out;
}

/** A copy with the source's times, so packing unchanged sources gives the same archive. */
async function copyWithTimes(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(from, to);
  const { atime, mtime } = await stat(from);
  await utimes(to, atime, mtime);
}

/**
 * A package folder with its nested node_modules, symlinks followed; `.bin` folders of links left out. A
 * package linked from outside any node_modules (a workspace package, `npm link`) is a source folder: its
 * tests, coverage, VCS metadata and archives stay out, as `npm pack` would leave them.
 */
async function copyPackageFolder(from: string, to: string): Promise<void> {
  const linked = !from.split(path.sep).includes('node_modules');
  const sourceOnly = new Set(['test', 'coverage', '.git']);
  await cp(from, to, {
    recursive: true,
    dereference: true,
    preserveTimestamps: true,
    filter: (source) => {
      if (path.basename(source) === '.bin' && path.basename(path.dirname(source)) === 'node_modules') return false;
      if (!linked) return true;
      const top = path.relative(from, source).split(path.sep)[0] ?? '';
      return !sourceOnly.has(top) && !source.endsWith('.tgz');
    },
  });
}

/** The plugin's package.json with `bundleDependencies` naming what the archive carries. */
async function writeArchivePackageJson(pluginDir: string, staging: string, pkg: PackageJson, plan: BundlePlan): Promise<void> {
  const declared = Object.hasOwn(pkg, 'bundleDependencies') || Object.hasOwn(pkg, 'bundledDependencies');
  if (plan.bundled.length === 0 && !declared) return;
  const { bundleDependencies: _declared, bundledDependencies: _alias, ...rest } = pkg;
  const written = plan.bundled.length > 0 ? { ...rest, bundleDependencies: plan.bundled } : rest;
  const file = path.join(staging, 'package.json');
  await writeFile(file, `${JSON.stringify(written, null, 2)}\n`);
  const { atime, mtime } = await stat(path.join(pluginDir, 'package.json'));
  await utimes(file, atime, mtime);
}

/** Every file under `root`, as `/`-separated relative paths in code-point order. */
async function listFiles(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}
