// Which files a plugin archive carries (`vela pack`), and where each comes from: the plugin's own files, and
// the run-time files of the packages it bundles (bundle-dependencies.ts), read in place rather than copied.
import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BundledFolder } from './bundle-dependencies.js';

/** A file of the archive: `at` is its path under `package/` (`/`-separated), `from` the file it is read from. */
interface PackedFile {
  at: string;
  from: string;
  stats: Stats;
}

/** Folders no plugin runs from: its tests, its dependencies (bundled on their own) and VCS metadata. */
const PLUGIN_SKIPPED = new Set(['node_modules', '.git', 'test', 'coverage']);
/**
 * Folders inside a bundled package that nothing loads at run time (a package folder itself is never skipped by its
 * name).
 */
const PACKAGE_SKIPPED_FOLDERS = new Set(['test', 'tests', '__tests__', 'coverage', '.git', '.github']);
/** Files of a bundled package that nothing loads at run time: source maps, type declarations, Markdown. */
const PACKAGE_SKIPPED_FILE = /\.(map|d\.[cm]?ts|md|markdown)$/i;
/** What a package's licence asks to be carried with it, whatever its extension. */
const LICENCE_FILE = /^(licen[cs]e|notice|copying)/i;

type Keep = (name: string, isFolder: boolean, parent: string) => boolean;

const keepPluginFile: Keep = (name, isFolder) => !PLUGIN_SKIPPED.has(name) && (isFolder || !name.endsWith('.tgz'));

/**
 * A bundled package keeps what runs; `.bin` folders of links are left out. A package linked from outside any
 * node_modules (a workspace package, `npm link`) is a source folder: its archives stay out too.
 */
function packageKeeper({ from, filesOnly }: BundledFolder): Keep {
  const linked = !from.split(path.sep).includes('node_modules');
  return (name, isFolder, parent) => {
    if (filesOnly && isFolder && name === 'node_modules' && parent === from) return false;
    const scope = path.basename(parent).startsWith('@') && path.basename(path.dirname(parent)) === 'node_modules';
    const inModules = path.basename(parent) === 'node_modules' || scope;
    if (isFolder) return name === '.bin' ? !inModules : inModules || !PACKAGE_SKIPPED_FOLDERS.has(name);
    if (LICENCE_FILE.test(name)) return true;
    return !PACKAGE_SKIPPED_FILE.test(name) && !(linked && name.endsWith('.tgz'));
  };
}

/**
 * The files of the plugin folder and of each bundled folder, in code-point order of their archive paths, but
 * those `exclude` names (`vela.pack.exclude`: globs relative to the folder of the package named).
 */
export async function packedFiles(
  pluginDir: string,
  folders: BundledFolder[],
  exclude: Record<string, string[]> = {},
): Promise<PackedFile[]> {
  const lists = await Promise.all([
    walk(pluginDir, '', keepPluginFile),
    ...folders.map((folder) => walk(folder.from, folder.at, packageKeeper(folder))),
  ]);
  const excluded = excludedBy(exclude);
  const byPath = new Map<string, PackedFile>();
  for (const file of lists.flat()) if (!byPath.has(file.at) && !excluded(file.at)) byPath.set(file.at, file);
  return [...byPath.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** Whether an archive path falls under an exclusion of the innermost package holding it, wherever that package sits. */
function excludedBy(exclude: Record<string, string[]>): (at: string) => boolean {
  const patterns = new Map(Object.entries(exclude).map(([name, globs]) => [name, globs.map(globPattern)]));
  if (patterns.size === 0) return () => false;
  return (at) => {
    const inner = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/((?:(?!node_modules\/).)+)$/.exec(at);
    return inner !== null && (patterns.get(inner[1]!)?.some((pattern) => pattern.test(inner[2]!)) ?? false);
  };
}

/** A glob as a regular expression: `**` any path (`**\/` none too), `*` and `?` within one path segment. */
function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Files under `dir`, symlinks followed, each placed at `at/<relative path>`. */
async function walk(dir: string, at: string, keep: Keep): Promise<PackedFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => visit(dir, entry, at, keep)));
  return nested.flat();
}

async function visit(dir: string, entry: Dirent, at: string, keep: Keep): Promise<PackedFile[]> {
  const from = path.join(dir, entry.name);
  const stats = await stat(from);
  const child = at ? `${at}/${entry.name}` : entry.name;
  if (stats.isDirectory()) return keep(entry.name, true, dir) ? walk(from, child, keep) : [];
  return stats.isFile() && keep(entry.name, false, dir) ? [{ at: child, from, stats }] : [];
}
