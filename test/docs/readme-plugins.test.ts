import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { packageRoot } from '../../runtime/paths.js';
import { childEnv, runVela } from '../../runtime/testing/child-runtime.js';

const readme = readFileSync(path.join(packageRoot, 'README.md'), 'utf8');

/** The part of the README under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`the README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

test("the README's table of what runs where lists exactly the plugins vela plugins finds, with their services and ports", async (t) => {
  const rows = section('What runs where')
    .split('\n')
    .filter((line) => /^\| *\w+ *\| *\d+ *\|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, service, port, plugin]) => ({ plugin: plugin!.replace(/`/g, ''), service: service!, port: Number(port) }));
  const listed = await runVela(['plugins'], childEnv());
  t.is(listed.code, 0, listed.stderr);
  const found = listed.stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/))
    .map(([name, , service]) => ({ plugin: name!, service: service! }));
  const defaults = loadConfig({ env: {}, cwd: packageRoot });
  const byName = (a: { plugin: string }, b: { plugin: string }) => a.plugin.localeCompare(b.plugin);
  t.deepEqual(
    [...rows].sort(byName),
    found.map((p) => ({ ...p, port: defaults.services[p.service]!.port })).sort(byName),
  );
});

test("the README's status names every plugin as built, and none as missing", async (t) => {
  const status = section('Status');
  const listed = await runVela(['plugins'], childEnv());
  const names = listed.stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/)[0]!);
  t.true(names.length >= 5, listed.stdout);
  for (const name of names) t.true(status.includes(`**Built: the \`${name}\` plugin`), name);
  t.notRegex(readme, /does not exist yet/i);
});
