import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `testFolder` needs of a test: ava's ExecutionContext has it. */
export interface Teardowns {
  teardown(fn: () => void): void;
}

/**
 * A new empty folder in the system's temp folder, removed when the test `t` ends (a data folder that outlives
 * one runtime of the test, a tree for a source to read).
 */
export function testFolder(t: Teardowns, prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `vela-${prefix}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
