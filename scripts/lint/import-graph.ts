// The runtime's import graph and its two rules: no cycle (type-only imports and re-exports included: a
// cycle of types still ties the modules into one unit nobody can read or move alone), and no import that
// runs back up the layers (a lower layer importing a higher one). Run alone:
// node --import=tsx scripts/lint/import-graph.ts [folder, default runtime]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf } from './plugin-boundaries.js';

export interface ImportEdge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

/** Folder path → files, relative to the root, with `/` separators. */
export type ImportGraph = Map<string, ImportEdge[]>;

const SOURCE = /\.(ts|mts|mjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return SOURCE.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
    });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the source tree. */
function resolveSpecifier(fromFile: string, specifier: string): string | null {
  const target = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    `${target}.ts`,
    path.join(target, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every relative import, export-from and dynamic import between the source files under `root`. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  for (const file of sourceFiles(root)) {
    const edges: ImportEdge[] = [];
    for (const site of importsOf(readFileSync(file, 'utf8'))) {
      if (!site.specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, site.specifier);
      if (target?.startsWith(root + path.sep))
        edges.push({ from: rel(file), to: rel(target), line: site.line, typeOnly: site.typeOnly });
    }
    graph.set(rel(file), edges);
  }
  return graph;
}

/** Each strongly connected group of files, as one cycle through it (`a -> b -> a`), found by Tarjan's algorithm. */
export function importCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const next = (file: string) => [...new Set((graph.get(file) ?? []).map((e) => e.to))];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const to of next(file)) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || next(file).includes(file)) groups.push(group);
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.map((group) => cycleThrough(graph, new Set(group)));
}

/** A shortest path from the group's first file (in name order) back to itself, within the group. */
function cycleThrough(graph: ImportGraph, group: Set<string>): string[] {
  const start = [...group].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { to } of graph.get(file) ?? []) {
      if (!group.has(to)) continue;
      if (to === start) {
        const chain: string[] = [];
        for (let at = file; at !== start; at = previous.get(at)!) chain.unshift(at);
        return [start, ...chain, start];
      }
      if (to !== start && !previous.has(to)) {
        previous.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/**
 * The runtime's layers, lowest first: a module may import its own layer and those below, never one above.
 * An entry is a folder or a file, by its path under runtime/; the longest entry that holds a file places it,
 * and a file no entry holds is an error of its own, so a new folder gets a place. The SDK entry is a facade
 * over the layers below it (the lifecycle hands it to plugins); the testing entry sits over the test runtime.
 */
export const RUNTIME_LAYERS: readonly (readonly string[])[] = [
  [
    'errors.ts',
    'paths.ts',
    'secret-values.ts',
    'logger.ts',
    'rate-limited-log.ts',
    'process-alive.ts',
    'module-resolution',
  ],
  ['config', 'di', 'secrets'],
  ['storage', 'changes', 'migrations', 'scheduler', 'workers', 'network'],
  ['auth'],
  ['hooks', 'http', 'console'],
  ['plugins'],
  ['sdk'],
  ['lifecycle'],
  ['cli', 'testing', 'sdk/testing.ts'],
];

export interface LayerProblem {
  edge: ImportEdge;
  problem: string;
}

/** Imports that run back up (or touch a file no layer lists). */
export function upwardImports(
  graph: ImportGraph,
  layers: readonly (readonly string[])[] = RUNTIME_LAYERS,
): LayerProblem[] {
  const holds = (entry: string, file: string) => file === entry || file.startsWith(`${entry}/`);
  const layerOf = (file: string) => {
    let best = { layer: -1, length: 0 };
    for (const [layer, entries] of layers.entries()) {
      for (const entry of entries)
        if (holds(entry, file) && entry.length > best.length) best = { layer, length: entry.length };
    }
    return best.layer;
  };
  const problems: LayerProblem[] = [];
  for (const edges of graph.values()) {
    for (const edge of edges) {
      const from = layerOf(edge.from);
      const to = layerOf(edge.to);
      if (from < 0 || to < 0) problems.push({ edge, problem: `${from < 0 ? edge.from : edge.to} is in no layer` });
      else if (to > from)
        problems.push({
          edge,
          problem: `layer ${from} (${layers[from]!.join(', ')}) imports layer ${to} (${layers[to]!.join(', ')})`,
        });
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const root = path.resolve(repo, process.argv[2] ?? 'runtime');
  const graph = importGraph(root);
  const cycles = importCycles(graph);
  const upward = upwardImports(graph);
  for (const cycle of cycles) console.log(`cycle: ${cycle.join(' -> ')}`);
  for (const { edge, problem } of upward)
    console.log(`upward: ${edge.from}:${edge.line} -> ${edge.to}${edge.typeOnly ? ' (type)' : ''}: ${problem}`);
  console.log(
    `import graph of ${path.relative(repo, root)}: ${graph.size} files, ${cycles.length} cycles, ${upward.length} upward imports`,
  );
  if (cycles.length > 0 || upward.length > 0) process.exitCode = 1;
}
