// The manifest of a plugin archive, read without unpacking the archive: the loader needs every plugin's
// manifest to choose which to load, and unpacks only those (discover.ts).
import { createReadStream } from 'node:fs';
import * as tar from 'tar';
import { bootErrors } from '../errors.js';
import { MANIFEST_FILE } from './manifest.js';

/** A manifest is a few hundred bytes; anything larger than this is not one. */
const MANIFEST_LIMIT = 1024 * 1024;

interface ArchiveManifest {
  /** The folder of the archive holding the manifest: `package` (the `npm pack` layout) or `.`. */
  root: string;
  text: string;
}

/**
 * The first `plugin.json` at the top of the archive or under `package/`. `vela pack` writes it first, so
 * reading stops at once; an archive made otherwise is read until the manifest turns up.
 */
export function readArchiveManifest(archive: string): Promise<ArchiveManifest> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(archive);
    const parser = new tar.Parser({ strict: true });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      input.destroy();
      outcome();
    };
    const unreadable = (error: Error) =>
      settle(() => reject(bootErrors.manifestInvalid(archive, `is not a readable .tgz archive (${error.message})`)));
    parser.on('entry', (entry: tar.ReadEntry) => {
      const at = entry.path.replace(/^\.\//, '');
      const root = at === MANIFEST_FILE ? '.' : at === `package/${MANIFEST_FILE}` ? 'package' : null;
      if (root === null || entry.type !== 'File') return entry.resume();
      if (entry.size > MANIFEST_LIMIT)
        return settle(() =>
          reject(bootErrors.manifestInvalid(`${archive} (${at})`, `is larger than ${MANIFEST_LIMIT} bytes`)),
        );
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => settle(() => resolve({ root, text: Buffer.concat(chunks).toString('utf8') })));
    });
    parser.on('error', unreadable);
    input.on('error', unreadable);
    parser.on('end', () =>
      settle(() =>
        reject(bootErrors.manifestInvalid(archive, `holds no ${MANIFEST_FILE} (looked at the top and under package/)`)),
      ),
    );
    input.pipe(parser);
  });
}
