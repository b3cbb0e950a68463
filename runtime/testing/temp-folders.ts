import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempFolders {
  /**
   * A new empty folder in the system's temp folder (outside the repository, so nothing above it holds the host's
   * node_modules).
   */
  make(prefix: string): string;
  /** Remove every folder made so far: hand it to `test.after.always`. */
  removeAll(): void;
}

/** Temp folders a test file makes as it goes (in helpers that have no test context) and removes all at its end. */
export function tempFolders(): TempFolders {
  const made: string[] = [];
  return {
    make: (prefix) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `vela-${prefix}-`));
      made.push(dir);
      return dir;
    },
    removeAll: () => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
