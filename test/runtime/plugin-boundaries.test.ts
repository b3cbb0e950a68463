import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { packageRoot } from 'vela/testing';
import {
  checkLibraryBoundaries,
  checkPluginBoundaries,
  importsOf,
  libraryFolders,
  pluginFolders,
} from '../../scripts/lint/plugin-boundaries.js';

test("every bundled plugin and the guide's example import only the SDK, their own files, declared packages and other plugins' contracts as types", (t) => {
  const folders = pluginFolders(packageRoot);
  t.true(folders.length >= 4, folders.join(', '));
  for (const folder of folders) t.deepEqual(checkPluginBoundaries(folder), [], path.relative(packageRoot, folder));
});

test('the rule names each way of leaving a plugin, and lets the allowed imports pass', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-boundaries-'));
  const plugin = path.join(dir, 'shop');
  mkdirSync(path.join(plugin, 'routes'), { recursive: true });
  mkdirSync(path.join(plugin, 'test'), { recursive: true });
  writeFileSync(path.join(plugin, 'plugin.json'), '{}');
  writeFileSync(
    path.join(plugin, 'package.json'),
    JSON.stringify({
      type: 'module',
      dependencies: { 'left-pad': '1.0.0' },
      devDependencies: { '@vela/plugin-search': '1.0.0', domhandler: '5.0.0' },
    }),
  );
  writeFileSync(
    path.join(plugin, 'index.ts'),
    [
      "import { definePlugin } from 'vela/plugin';",
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "import pad from 'left-pad';",
      "import type { SearchImporter } from '@vela/plugin-search/api';",
      "import { type SearchSites } from '@vela/plugin-search/api';",
      "import type { AnyNode } from 'domhandler';",
      "import { mountRoutes } from './routes/items.js';",
      'export default definePlugin({ register() {} });',
    ].join('\n'),
  );
  writeFileSync(
    path.join(plugin, 'routes', 'items.ts'),
    [
      "import { httpErrors } from '../../../runtime/errors.js';",
      "import { startTestRuntime } from 'vela/testing';",
      "import { SearchImporter } from '@vela/plugin-search/api';",
      "import { checkImportItems } from '@vela/plugin-search/indexing/import-items';",
      "import * as cheerio from 'cheerio';",
      "import type { Element } from 'domhandler';",
      "export const lazy = () => import('../../other/x.js');",
      "const legacy = require('lodash');",
      "export * from '../../search/api.js';",
    ].join('\n'),
  );
  writeFileSync(
    path.join(plugin, 'test', 'x.test.ts'),
    "import { startTestRuntime } from 'vela/testing';\nimport '../../../runtime/anything.js';",
  );

  const found = checkPluginBoundaries(plugin).map((v) => `${path.basename(v.file)}:${v.line} ${v.specifier}`);
  t.deepEqual(found, [
    'items.ts:1 ../../../runtime/errors.js',
    'items.ts:2 vela/testing',
    'items.ts:3 @vela/plugin-search/api',
    'items.ts:4 @vela/plugin-search/indexing/import-items',
    'items.ts:5 cheerio',
    'items.ts:9 ../../search/api.js',
    'items.ts:7 ../../other/x.js',
    'items.ts:8 lodash',
  ]);
});

test('imports are read with their kind: type-only statements and clauses, side-effect imports, dynamic imports, require and augmentations', (t) => {
  const sites = importsOf(
    [
      "import type { A } from 'a';",
      "import { type B, type C } from 'b';",
      "import { D, type E } from 'd';",
      "import 'side-effect';",
      "export { F } from 'f';",
      "const g = await import('g');",
      "declare module 'vela/plugin' {}",
    ].join('\n'),
  );
  t.deepEqual(
    sites.map((s) => [s.specifier, s.typeOnly]),
    [
      ['a', true],
      ['b', true],
      ['d', false],
      ['f', false],
      ['side-effect', false],
      ['g', false],
      ['vela/plugin', true],
    ],
  );
});

test('library packages (packages/*) import only their own files, built-ins and declared packages: never the runtime nor a plugin', (t) => {
  const libraries = libraryFolders(packageRoot);
  t.true(
    libraries.some((dir) => path.basename(dir) === 'extraction'),
    libraries.join(', '),
  );
  for (const folder of libraries) t.deepEqual(checkLibraryBoundaries(folder), [], path.relative(packageRoot, folder));

  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-library-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', dependencies: { cheerio: '1.0.0' } }));
  writeFileSync(
    path.join(dir, 'index.ts'),
    [
      "import * as cheerio from 'cheerio';",
      "import { readFileSync } from 'node:fs';",
      "import { VelaError } from 'vela/plugin';",
      "import type { SearchSites } from '@vela/plugin-search/api';",
      "import { x } from '../elsewhere/x.js';",
    ].join('\n'),
  );
  const problems = checkLibraryBoundaries(dir).map((v) => `${v.line} ${v.specifier}`);
  t.deepEqual(problems, ['3 vela/plugin', '4 @vela/plugin-search/api', '5 ../elsewhere/x.js']);
});
