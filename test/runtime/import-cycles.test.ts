import { fileURLToPath } from 'node:url';
import test from 'ava';
import { type ImportGraph, importCycles, importGraph, upwardImports } from '../../scripts/lint/import-graph.js';

const runtimeDir = fileURLToPath(new URL('../../runtime', import.meta.url));
const graph = importGraph(runtimeDir);

test('the runtime has no import cycle, type-only imports and re-exports included', (t) => {
  t.true(graph.size > 50, 'the graph holds the runtime');
  const cycles = importCycles(graph).map((cycle) => cycle.join(' -> '));
  t.deepEqual(cycles, [], `import cycles in runtime/:\n${cycles.join('\n')}`);
});

test('no runtime module imports one of a higher layer', (t) => {
  const problems = upwardImports(graph).map(
    ({ edge, problem }) => `${edge.from}:${edge.line} -> ${edge.to}: ${problem}`,
  );
  t.deepEqual(problems, [], problems.join('\n'));
});

test('the checker names each cycle through import type and export ... from, and an upward import', (t) => {
  const edge = (from: string, to: string, typeOnly = false) => ({ from, to, line: 1, typeOnly });
  const looped: ImportGraph = new Map([
    ['a/x.ts', [edge('a/x.ts', 'b/y.ts', true)]],
    ['b/y.ts', [edge('b/y.ts', 'c/z.ts')]],
    ['c/z.ts', [edge('c/z.ts', 'a/x.ts')]],
    ['d/w.ts', [edge('d/w.ts', 'd/w.ts')]],
  ]);
  t.deepEqual(importCycles(looped), [
    ['a/x.ts', 'b/y.ts', 'c/z.ts', 'a/x.ts'],
    ['d/w.ts', 'd/w.ts'],
  ]);
  const upward = upwardImports(new Map([['a/x.ts', [edge('a/x.ts', 'b/y.ts', true)]]]), [['a'], ['b']]);
  t.deepEqual(
    upward.map((p) => p.problem),
    ['layer 0 (a) imports layer 1 (b)'],
  );
});

test('import type and re-exports are edges of the parsed graph', (t) => {
  const sdk = graph.get('sdk/plugin.ts') ?? [];
  t.true(
    sdk.some((e) => e.to === 'hooks/hook-registry.ts' && e.typeOnly),
    'export type { ... } from',
  );
  t.true(
    sdk.some((e) => e.to === 'errors.ts' && !e.typeOnly),
    'export { ... } from',
  );
});
