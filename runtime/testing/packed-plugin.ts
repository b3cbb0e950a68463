import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { packageRoot } from '../paths.js';
import { type ChildRuntime, childEnv, packedHome, startChildRuntime } from './child-runtime.js';
import type { TestTeardown } from './test-postgres.js';

/** A plugin packed by `vela pack` and started from its archive in a process of its own (startPacked). */
export interface PackedRun {
  vela: ChildRuntime;
  /** The home folder the process runs in (its data in `data/`), removed when the test ends. */
  home: string;
  /** The archive `vela pack` wrote, and the paths inside it (`package/...`). */
  archive: string;
  entries: string[];
}

/**
 * `plugin` packed as a user packs it (packedHome) and started from its archive with `vela start`, the folders of
 * the bundled plugins `beside` (`search`, say) before it on the loader path and `config` as its configuration
 * file when given; the process stops when the test ends.
 */
export async function startPacked(
  t: TestTeardown,
  plugin: string,
  beside: string[],
  config?: Record<string, unknown>,
): Promise<PackedRun> {
  const { home, archive } = await packedHome(t, plugin);
  const folders = beside.map((name) => path.join(packageRoot, 'plugins', name));
  const args = ['--loader-path', [...folders, archive].join(',')];
  if (config) {
    const file = path.join(home, 'config.json');
    writeFileSync(file, JSON.stringify(config));
    args.unshift('--config', file);
  }
  const vela = await startChildRuntime(args, childEnv({ VELA_DATA_DIR: path.join(home, 'data') }), home);
  t.teardown(async () => {
    await vela.stop();
  });
  return { vela, home, archive, entries: await archiveEntries(archive) };
}

/** The paths inside a plugin archive (`package/...`). */
export async function archiveEntries(archive: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  return entries;
}

/** How many plugins a child runtime's boot tree says it loaded from an archive. */
export function archiveOrigins(vela: ChildRuntime): number {
  const boot = vela
    .output()
    .split('\n')
    .find((line) => line.includes('"bootTree"'));
  return (boot?.match(/"origin":"archive"/g) ?? []).length;
}

/**
 * What went otherwise than a deployment of one packed plugin goes: tests carried in its archive, a number of
 * plugins loaded from an archive other than one, loaded plugins other than `plugins`. Empty when none did.
 */
export function packedProblems({ vela, entries }: PackedRun, plugins: string[]): string[] {
  const problems = entries.filter((entry) => entry.startsWith('package/test/')).map((entry) => `${entry} is packed`);
  const fromArchives = archiveOrigins(vela);
  if (fromArchives !== 1) problems.push(`${fromArchives} plugins loaded from an archive, not 1`);
  const loaded = [...vela.plugins].sort();
  if (loaded.join() !== [...plugins].sort().join()) problems.push(`the plugins loaded are ${loaded.join(', ')}`);
  return problems;
}
