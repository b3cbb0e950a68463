// The plugin boundary rule: a plugin imports the runtime only through the SDK entry (`vela/plugin`),
// other plugins only through their published contract as types (`import type ... from
// '@vela/plugin-<name>/api'`), and otherwise its own files, Node's built-ins and the npm packages its
// package.json declares, so that it packs and loads alone from its archive. Tests (test/) are not packed
// and are not checked. Library packages (packages/*: npm workspace packages plugins list as dependencies, such
// as @vela/extraction) keep a stricter rule: their own files, Node's built-ins and their declared packages,
// nothing of the runtime and no plugin. Run alone: node --import=tsx scripts/lint/plugin-boundaries.ts [folders...]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Violation {
  file: string;
  line: number;
  specifier: string;
  problem: string;
}

interface ImportSite {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIPPED = new Set(['node_modules', 'test']);
const CONTRACT = /^@vela\/plugin-[a-z][a-z0-9-]*\/api$/;
const builtins = new Set(builtinModules);

/** Every static import/export-from, dynamic import and require of a source file, with whether it is type-only. */
export function importsOf(source: string): ImportSite[] {
  const sites: ImportSite[] = [];
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  const statement = /(^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(statement)) {
    const clause = m[4] ?? '';
    // `import { type A, type B } from` is type-only too; `import type` always is.
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    const allTypes =
      !!named &&
      named[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    sites.push({
      specifier: m[5]!,
      typeOnly: !!m[3] || allTypes,
      line: lineAt(m.index! + m[0].indexOf(m[2]!, m[1]!.length)),
    });
  }
  for (const m of source.matchAll(/(^|[;\n])\s*import\s*['"]([^'"]+)['"]/g))
    sites.push({ specifier: m[2]!, typeOnly: false, line: lineAt(m.index! + m[0].indexOf('import', m[1]!.length)) });
  for (const m of source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    sites.push({ specifier: m[1]!, typeOnly: false, line: lineAt(m.index!) });
  for (const m of source.matchAll(/declare\s+module\s+['"]([^'"]+)['"]/g))
    sites.push({ specifier: m[1]!, typeOnly: true, line: lineAt(m.index!) });
  return sites;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function declaredPackages(pluginDir: string): { runtime: Set<string>; typesOnly: Set<string> } {
  const file = path.join(pluginDir, 'package.json');
  const pkg = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>)
    : {};
  const runtime = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  return { runtime, typesOnly: new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {})]) };
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (SKIPPED.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Why one import breaks the rule, or null when it keeps it. */
function problemOf(
  site: ImportSite,
  file: string,
  pluginDir: string,
  declared: ReturnType<typeof declaredPackages>,
  library = false,
): string | null {
  const { specifier, typeOnly } = site;
  if (specifier.startsWith('.')) {
    const target = path.resolve(path.dirname(file), specifier);
    if (target === pluginDir || target.startsWith(pluginDir + path.sep)) return null;
    return library
      ? 'a relative import that leaves the library package: it is bundled into plugin archives alone'
      : "a relative import that leaves the plugin folder (use vela/plugin, or another plugin's @vela/plugin-<name>/api as types)";
  }
  if (library && (specifier === 'vela' || specifier.startsWith('vela/'))) {
    return 'a library package does not import the runtime: it is a plain npm package plugins bundle (pass what it needs in)';
  }
  if (library && specifier.startsWith('@vela/plugin-'))
    return 'a library package does not import plugins: plugins import it';
  if (specifier.startsWith('/') || /^[a-z]+:/i.test(specifier)) {
    return specifier.startsWith('node:') ? null : 'an absolute path or URL: import by package name';
  }
  if (specifier === 'vela/plugin') return null;
  if (specifier === 'vela' || specifier.startsWith('vela/'))
    return `"${specifier}" is not the SDK entry: plugins import the runtime only as vela/plugin (vela/testing is for tests)`;
  if (CONTRACT.test(specifier)) {
    if (!typeOnly)
      return "another plugin's contract is imported with `import type` only (at run time, use its services)";
    return declared.typesOnly.has(packageName(specifier))
      ? null
      : `${packageName(specifier)} is not declared in the plugin's package.json (devDependencies)`;
  }
  if (specifier.startsWith('@vela/plugin-'))
    return 'another plugin is reached only through its contract, @vela/plugin-<name>/api, as types';
  if (builtins.has(specifier)) return null;
  const name = packageName(specifier);
  if (declared.runtime.has(name)) return null;
  if (typeOnly && declared.typesOnly.has(name)) return null;
  return `npm package ${name} is not declared in the plugin's package.json dependencies, so its archive would not carry it`;
}

/** Every import of the plugin's files (tests aside) that breaks the boundary rule. */
export function checkPluginBoundaries(pluginDir: string): Violation[] {
  return checkFolder(pluginDir, false);
}

/** Every import of a library package's files (tests aside) that breaks its rule. */
export function checkLibraryBoundaries(libraryDir: string): Violation[] {
  return checkFolder(libraryDir, true);
}

function checkFolder(dir: string, library: boolean): Violation[] {
  const root = path.resolve(dir);
  const declared = declaredPackages(root);
  const violations: Violation[] = [];
  for (const file of sourceFiles(root)) {
    for (const site of importsOf(readFileSync(file, 'utf8'))) {
      const problem = problemOf(site, file, root, declared, library);
      if (problem)
        violations.push({
          file: path.relative(process.cwd(), file),
          line: site.line,
          specifier: site.specifier,
          problem,
        });
    }
  }
  return violations;
}

/** The plugin folders of a repository: plugins/* and docs/examples/* with a plugin.json. */
export function pluginFolders(repoRoot: string): string[] {
  return ['plugins', path.join('docs', 'examples')].flatMap((parent) => {
    const dir = path.join(repoRoot, parent);
    return existsSync(dir)
      ? readdirSync(dir)
          .map((name) => path.join(dir, name))
          .filter((d) => existsSync(path.join(d, 'plugin.json')))
      : [];
  });
}

/** The library packages of a repository: packages/* with a package.json and no plugin.json. */
export function libraryFolders(repoRoot: string): string[] {
  const dir = path.join(repoRoot, 'packages');
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((name) => path.join(dir, name))
        .filter((d) => existsSync(path.join(d, 'package.json')) && !existsSync(path.join(d, 'plugin.json')))
    : [];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const given = process.argv.slice(2);
  const folders = given.length > 0 ? given : [...pluginFolders(repoRoot), ...libraryFolders(repoRoot)];
  const isLibrary = (dir: string) => !existsSync(path.join(dir, 'plugin.json'));
  const violations = folders.flatMap((dir) =>
    isLibrary(dir) ? checkLibraryBoundaries(dir) : checkPluginBoundaries(dir),
  );
  for (const v of violations) console.error(`${v.file}:${v.line}: ${v.specifier}: ${v.problem}`);
  const libraries = folders.filter(isLibrary).length;
  console.log(
    violations.length === 0
      ? `plugin boundaries: ${folders.length - libraries} plugins, ${libraries} library packages, no violation`
      : `plugin boundaries: ${violations.length} violations`,
  );
  process.exitCode = violations.length === 0 ? 0 : 1;
}
