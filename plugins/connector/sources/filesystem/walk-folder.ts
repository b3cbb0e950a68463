import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PathFilter } from './path-filter.js';

export interface FoundFile {
  /** Relative to the root, with / on every platform: the document id. */
  relativePath: string;
  absolutePath: string;
}

/** A folder that could not be listed: its documents are unknown this run. */
export interface UnlistableFolder {
  relativePath: string;
  error: string;
}

/**
 * Files under `root` that the filter accepts, depth first in name order (stable ids, stable runs).
 * Symbolic links are skipped unless `followSymlinks`; then each real folder is entered once, so a link
 * loop ends and a folder linked twice is read once.
 */
export async function* walkFolder(
  root: string,
  filter: PathFilter,
  followSymlinks: boolean,
  signal: AbortSignal,
): AsyncGenerator<FoundFile | UnlistableFolder> {
  // Real paths of the folders entered, when links are followed: a link back to one of them is not entered again.
  const visited = new Set<string>();
  async function* visit(absolute: string, relative: string): AsyncGenerator<FoundFile | UnlistableFolder> {
    if (followSymlinks) {
      const real = await realpath(absolute);
      if (visited.has(real)) return;
      visited.add(real);
    }
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch (error) {
      yield { relativePath: `${relative}/`, error: `cannot list folder: ${(error as Error).message}` };
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      signal.throwIfAborted();
      const childAbsolute = path.join(absolute, entry.name);
      const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
      let kind: 'file' | 'folder' | 'other' = entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : 'other';
      if (entry.isSymbolicLink()) {
        if (!followSymlinks) continue;
        const target = await stat(childAbsolute).catch(() => null); // a dangling link is no document
        if (!target) continue;
        kind = target.isFile() ? 'file' : target.isDirectory() ? 'folder' : 'other';
      }
      if (kind === 'folder' && filter.acceptsFolder(childRelative)) yield* visit(childAbsolute, childRelative);
      else if (kind === 'file' && filter.acceptsFile(childRelative))
        yield { relativePath: childRelative, absolutePath: childAbsolute };
    }
  }
  yield* visit(root, '');
}
