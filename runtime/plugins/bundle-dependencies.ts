// Which npm packages a plugin archive carries (`vela pack`), and where each goes in it. The rule: a
// dependency of the plugin that the host lists with a version satisfying the plugin's range is shared (the
// plugin resolves the host's copy at run time); any other is bundled with the closure of its own
// dependencies, laid out so that Node's resolution inside the archive finds what it found on disk.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { VelaError } from '../errors.js';
import { packageRoot } from '../paths.js';

/** The members of a package.json that packing reads. */
export interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  /**
   * What `vela pack` leaves out of the archive (PackOptions): read from the plugin's package.json and every bundled
   * one's.
   */
  vela?: { pack?: PackOptions };
  [member: string]: unknown;
}

/**
 * A package.json's `vela.pack`: knowledge of its own dependencies that only its author has. Packing cannot
 * tell which files of a package run; a package that loads one build of another (tesseract.js-core's
 * WebAssembly without its browser copies, one traineddata folder of several) says so here.
 */
interface PackOptions {
  /** Packages carried for their files only (served or read, never imported): their dependencies are not bundled. */
  filesOnly?: string[];
  /** Per package name, globs (`*`, `**`, relative to that package's folder) of files the archive leaves out. */
  exclude?: Record<string, string[]>;
}

/** A package folder the archive carries: `from` (a real folder) is copied to `at`, relative to the plugin root. */
export interface BundledFolder {
  /** Archive path with `/` separators, e.g. `node_modules/cheerio` or `node_modules/a/node_modules/b`. */
  at: string;
  from: string;
  name: string;
  version: string;
  /** Listed in `vela.pack.filesOnly`: copied without its own node_modules, its dependencies not followed. */
  filesOnly?: boolean;
}

export interface BundlePlan {
  /** Direct dependencies the archive carries: its package.json's `bundleDependencies`. Sorted. */
  bundled: string[];
  /** Direct dependencies left to the host, which has a version in the plugin's range. Sorted. */
  shared: string[];
  /**
   * Folders to copy, each with its own nested node_modules (but a files-only one); parents before children (sorted by
   * `at`).
   */
  folders: BundledFolder[];
  /** The `vela.pack.exclude` globs of the plugin's package.json and of every bundled package's, by package name. */
  exclude: Record<string, string[]>;
}

export function readPackageJson(dir: string): PackageJson | null {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch (error) {
    throw new VelaError('E_PACK_DEPENDENCY', `${file} is not valid JSON (${(error as Error).message})`);
  }
}

const packError = (pluginDir: string, message: string) =>
  new VelaError('E_PACK_DEPENDENCY', `cannot pack ${pluginDir}: ${message}`);

/** The folders Node looks in for `name` from a module in `dir`: `dir/node_modules`, then each ancestor's. */
function nodeModulesDirs(dir: string): string[] {
  const out: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (path.basename(at) !== 'node_modules') out.push(path.join(at, 'node_modules'));
    if (path.dirname(at) === at) return out;
  }
}

/** The real folder of package `name` as Node resolves it from `dir`, or null when it is not installed. */
function findInstalledPackage(name: string, dir: string): string | null {
  for (const modules of nodeModulesDirs(dir)) {
    const folder = path.join(modules, ...name.split('/'));
    if (existsSync(path.join(folder, 'package.json'))) return realpathSync(folder);
  }
  return null;
}

function versionOf(folder: string): string {
  return readPackageJson(folder)?.version ?? '0.0.0';
}

/** Both kinds of dependencies of a package, optional ones marked; a name in both counts as optional. */
function dependenciesOf(pkg: PackageJson): Array<{ name: string; range: string; optional: boolean }> {
  const optional = pkg.optionalDependencies ?? {};
  const all = { ...(pkg.dependencies ?? {}), ...optional };
  return Object.keys(all)
    .sort()
    .map((name) => ({ name, range: all[name]!, optional: Object.hasOwn(optional, name) }));
}

/** The host's version of `name` when the host lists it in its package.json `dependencies`. */
function hostVersion(name: string, hostRoot: string, hostPackage: PackageJson | null): string | null {
  if (!hostPackage?.dependencies || !Object.hasOwn(hostPackage.dependencies, name)) return null;
  const folder = findInstalledPackage(name, hostRoot);
  return folder ? versionOf(folder) : null;
}

const satisfies = (version: string, range: string) =>
  semver.validRange(range) !== null && semver.satisfies(version, range);

/**
 * Plan the node_modules of a plugin's archive from its package.json (`pkg`; null when the folder has none).
 * Packages are found where Node would find them from the plugin folder (its own node_modules, then its
 * ancestors'), symlinks followed, and each package's dependencies from that package's real folder.
 */
export function planBundle(pluginDir: string, pkg: PackageJson | null, hostRoot: string = packageRoot): BundlePlan {
  const plan: BundlePlan = { bundled: [], shared: [], folders: [], exclude: {} };
  if (!pkg) return plan;
  const hostPackage = readPackageJson(hostRoot);
  const pluginReal = realpathSync(pluginDir);
  const filesOnly = new Set(pkg.vela?.pack?.filesOnly ?? []);
  const addExclusions = (options: PackOptions | undefined) => {
    for (const [name, globs] of Object.entries(options?.exclude ?? {}))
      plan.exclude[name] = [...(plan.exclude[name] ?? []), ...globs];
  };
  addExclusions(pkg.vela?.pack);

  /** Every package folder in the archive by its path there, including those inside a copied folder. */
  const inArchive = new Map<string, { real: string; version: string }>();
  const copy = (name: string, from: string, at: string) => {
    const pkgOfCopy = readPackageJson(from);
    const version = pkgOfCopy?.version ?? '0.0.0';
    addExclusions(pkgOfCopy?.vela?.pack);
    if (filesOnly.has(name)) {
      plan.folders.push({ at, from, name, version, filesOnly: true });
      inArchive.set(at, { real: from, version });
      return;
    }
    plan.folders.push({ at, from, name, version });
    inArchive.set(at, { real: from, version });
    registerNested(from, at);
  };
  const registerNested = (folder: string, at: string, seen = new Set<string>([folder])) => {
    for (const name of packageNamesIn(path.join(folder, 'node_modules'))) {
      const nested = realpathSync(path.join(folder, 'node_modules', ...name.split('/')));
      if (seen.has(nested)) continue;
      const nestedAt = `${at}/node_modules/${name}`;
      inArchive.set(nestedAt, { real: nested, version: versionOf(nested) });
      registerNested(nested, nestedAt, new Set([...seen, nested]));
    }
  };

  // The direct dependencies first, so each takes its place at the top of the archive's node_modules.
  const queue: Array<{ at: string; real: string; chain: string[] }> = [];
  for (const { name, range, optional } of dependenciesOf(pkg)) {
    const host = hostVersion(name, hostRoot, hostPackage);
    if (host !== null && satisfies(host, range)) {
      plan.shared.push(name);
      continue;
    }
    const found = findInstalledPackage(name, pluginReal);
    if (!found) {
      if (optional) continue;
      throw packError(
        pluginDir,
        `its dependency ${name}@${range} is not installed (run npm install in the plugin folder)`,
      );
    }
    const version = versionOf(found);
    if (semver.validRange(range) !== null && !semver.satisfies(version, range)) {
      throw packError(pluginDir, `its dependency ${name}@${range} is installed at version ${version} (${found})`);
    }
    plan.bundled.push(name);
    copy(name, found, `node_modules/${name}`);
    if (!filesOnly.has(name)) queue.push({ at: `node_modules/${name}`, real: found, chain: [name] });
  }

  // The top of the archive's node_modules is kept for the version the plugin's own tree has at its top
  // (what Node finds from the plugin folder), so the archive looks like the installed tree where it can.
  const mayTakeTop = (name: string, real: string, version: string) => {
    const top = findInstalledPackage(name, pluginReal);
    return !top || top === real || versionOf(top) === version;
  };

  // Then the closure of their dependencies, breadth first: where Node, from the dependent's place in the
  // archive, already finds the same package, nothing is added; otherwise it goes to the top when that
  // place is free, or under the dependent's own node_modules when another version holds (or is kept) there.
  const walked = new Set<string>();
  while (queue.length > 0) {
    const dependent = queue.shift()!;
    if (walked.has(dependent.at)) continue;
    walked.add(dependent.at);
    for (const { name, range, optional } of dependenciesOf(readPackageJson(dependent.real) ?? {})) {
      const real = findInstalledPackage(name, dependent.real);
      if (!real) {
        if (optional) continue;
        throw packError(
          pluginDir,
          `${dependent.chain.join(' > ')} needs ${name}@${range}, which is not installed where Node looks from ${dependent.real} (run npm install)`,
        );
      }
      const version = versionOf(real);
      const visible = visibleFrom(inArchive, name, dependent.at);
      let at: string;
      if (visible && (visible.entry.real === real || visible.entry.version === version)) at = visible.at;
      else {
        at =
          visible || !mayTakeTop(name, real, version) ? `${dependent.at}/node_modules/${name}` : `node_modules/${name}`;
        copy(name, real, at);
      }
      // Walk the dependencies of the copy that is at that place.
      if (!filesOnly.has(name)) queue.push({ at, real: inArchive.get(at)!.real, chain: [...dependent.chain, name] });
    }
  }

  plan.bundled.sort();
  plan.shared.sort();
  plan.folders.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return plan;
}

/** What Node finds for `name` from the package at `from` in the archive: the nearest node_modules up the path. */
function visibleFrom(inArchive: Map<string, { real: string; version: string }>, name: string, from: string) {
  for (let dir = from; ; dir = path.posix.dirname(dir)) {
    if (path.posix.basename(dir) !== 'node_modules') {
      const at = dir === '.' || dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      const entry = inArchive.get(at);
      if (entry) return { at, entry };
    }
    if (dir === '.' || dir === '') return null;
  }
}

/** Package names in a node_modules folder (`@scope/name` for scoped ones), sorted; `.bin` and the like skipped. */
function packageNamesIn(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const names: string[] = [];
  for (const entry of readdirSorted(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSorted(path.join(modules, entry))) {
        if (existsSync(path.join(modules, entry, scoped, 'package.json'))) names.push(`${entry}/${scoped}`);
      }
    } else if (existsSync(path.join(modules, entry, 'package.json'))) names.push(entry);
  }
  return names;
}

function readdirSorted(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
