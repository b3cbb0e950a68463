import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import test from 'ava';
import * as tar from 'tar';
import { manifest, packPlugin, startTestRuntime, tempFolders, writePlugins } from 'vela/testing';
import { VelaError } from '../../runtime/errors.js';
import { packageRoot } from '../../runtime/paths.js';
import { planBundle, readPackageJson } from '../../runtime/plugins/bundle-dependencies.js';

// Every folder here is made in the system's temp folder, outside the repository: nothing above a plugin
// holds the host's node_modules, so what it finds comes from its archive or from the host's fallback.
const folders = tempFolders();
const tmp = folders.make;
test.after.always(folders.removeAll);
const hostSemver = (createRequire(path.join(packageRoot, 'package.json'))('semver/package.json') as { version: string })
  .version;
const CAUGHT = Symbol.for('vela.test.plugin-packages.VelaError');

/** A small real npm package folder: package.json and index.js. */
function writePackage(dir: string, pkg: Record<string, unknown>, index: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ main: 'index.js', ...pkg }, null, 2));
  writeFileSync(path.join(dir, 'index.js'), index);
}

/** A CommonJS package that says which copy it is (`name@version`), and which copies its dependencies are. */
function writeReporter(dir: string, name: string, version: string, deps: Record<string, string> = {}): void {
  const requires = Object.keys(deps)
    .map((dep) => `${JSON.stringify(dep)}: require(${JSON.stringify(dep)}).which`)
    .join(', ');
  writePackage(
    dir,
    { name, version, dependencies: deps },
    `exports.which = ${JSON.stringify(`${name}@${version}`)};\nexports.deps = { ${requires} };\n`,
  );
}

/**
 * A plugin written outside the repository with its own package.json and node_modules (as npm would have
 * installed them; names without their `vela-fixture-` prefix): `words` (ES module, the host has no such package, depends on `letters` ^1), `letters`
 * 1.0.0 hoisted, `pair` whose own node_modules holds `letters` 2.0.0, `linked` a symlink to a package
 * elsewhere whose `letters` there is 3.0.0, `semver` 99.0.0 (the host has 7, outside the range ^99),
 * `stray` (installed, not a dependency), and `express` ^5 (the host has a satisfying version: shared).
 */
function writeOutsidePlugin(): string {
  const root = tmp('outside');
  const dir = path.join(root, 'outside');
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  writeFileSync(
    path.join(dir, 'plugin.json'),
    JSON.stringify(manifest('outside', { consumes: ['workers'], version: '1.4.0' })),
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'vela-plugin-outside',
        version: '1.4.0',
        type: 'module',
        dependencies: {
          'vela-fixture-words': '^1.0.0',
          'vela-fixture-pair': '^1.0.0',
          'vela-fixture-linked': '^1.0.0',
          semver: '^99.0.0',
          express: '^5.0.0',
        },
        devDependencies: { 'vela-fixture-stray': '^1.0.0' },
      },
      null,
      2,
    ),
  );

  writePackage(
    path.join(modules, 'vela-fixture-words'),
    {
      name: 'vela-fixture-words',
      version: '1.2.0',
      type: 'module',
      dependencies: { 'vela-fixture-letters': '^1.0.0' },
    },
    `import letters from 'vela-fixture-letters';\nexport const shout = (text) => text.toUpperCase() + '!';\nexport const which = 'vela-fixture-words@1.2.0 with ' + letters.which;\n`,
  );
  writeReporter(path.join(modules, 'vela-fixture-letters'), 'vela-fixture-letters', '1.0.0');
  writeReporter(path.join(modules, 'vela-fixture-pair'), 'vela-fixture-pair', '1.0.0', {
    'vela-fixture-letters': '^2.0.0',
  });
  writeReporter(
    path.join(modules, 'vela-fixture-pair', 'node_modules', 'vela-fixture-letters'),
    'vela-fixture-letters',
    '2.0.0',
  );
  // A linked package (npm link, a workspace): its real folder is elsewhere, with its own neighbours there.
  const elsewhere = path.join(root, 'elsewhere', 'node_modules');
  writeReporter(path.join(elsewhere, 'vela-fixture-linked'), 'vela-fixture-linked', '1.0.0', {
    'vela-fixture-letters': '^3.0.0',
  });
  writeReporter(path.join(elsewhere, 'vela-fixture-letters'), 'vela-fixture-letters', '3.0.0');
  symlinkSync(path.join(elsewhere, 'vela-fixture-linked'), path.join(modules, 'vela-fixture-linked'), 'dir');
  writePackage(
    path.join(modules, 'semver'),
    { name: 'semver', version: '99.0.0' },
    `exports.version = '99.0.0';\nexports.fake = true;\n`,
  );
  writeReporter(path.join(modules, 'vela-fixture-stray'), 'vela-fixture-stray', '1.0.0');

  writeFileSync(
    path.join(dir, 'index.ts'),
    `
import express from 'express';
import semver from 'semver';
import { httpErrors, VelaError } from 'vela/plugin';
import { shout, which } from 'vela-fixture-words';
import pair from 'vela-fixture-pair';
import linked from 'vela-fixture-linked';

export default {
  register(ctx) {
    globalThis[Symbol.for('vela.test.plugin-packages.VelaError')] = VelaError;
    const task = ctx.task(new URL('./tasks/shout.ts', import.meta.url));
    ctx.routes((router) => {
      router.get('/api/outside/hello', { access: 'public' }, (_req, res) => {
        res.json({ text: shout('hello'), words: which, pair, linked, semver: semver.version, expressRouter: typeof express.Router });
      });
      router.get('/api/outside/worker', { access: 'public' }, async (_req, res) => res.json(await task('from a worker')));
      router.get('/api/outside/missing', { access: 'public' }, () => {
        throw httpErrors.notFound('no such greeting');
      });
      router.get('/api/outside/locked', { access: 'public' }, () => {
        throw new VelaError('greeting_locked', 'try again later', 423);
      });
    });
  },
};
`,
  );
  mkdirSync(path.join(dir, 'tasks'));
  writeFileSync(
    path.join(dir, 'tasks', 'shout.ts'),
    `
import express from 'express';
import semver from 'semver';
import { httpErrors } from 'vela/plugin';
import { isMainThread } from 'node:worker_threads';
import { shout, which } from 'vela-fixture-words';

export default function run(text: string) {
  return { text: shout(text), words: which, semver: semver.version, expressRouter: typeof express.Router, conflict: httpErrors.conflict('x').status, mainThread: isMainThread };
}
`,
  );
  return dir;
}

async function archiveEntries(archive: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.t({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  return entries;
}

async function archiveFile(archive: string, file: string): Promise<string> {
  const chunks: Buffer[] = [];
  await tar.t({
    file: archive,
    onReadEntry: (entry) =>
      entry.path === file ? entry.on('data', (chunk: Buffer) => chunks.push(chunk)) : entry.resume(),
  });
  return Buffer.concat(chunks).toString('utf8');
}

async function unpacked(archive: string): Promise<string> {
  const dir = tmp('unpacked');
  await tar.x({ file: archive, cwd: dir });
  return path.join(dir, 'package');
}

const versionIn = (folder: string) =>
  (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;

test('pack bundles the dependencies the host lacks or has outside the range, with their closure; the rest is shared', async (t) => {
  const plugin = writeOutsidePlugin();
  const archive = await packPlugin(plugin, tmp('archives'));
  const root = await unpacked(archive);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  t.deepEqual(pkg.bundleDependencies, ['semver', 'vela-fixture-linked', 'vela-fixture-pair', 'vela-fixture-words']);
  t.is(pkg.type, 'module', 'the rest of the package.json is kept');

  const modules = path.join(root, 'node_modules');
  t.is(versionIn(path.join(modules, 'semver')), '99.0.0', 'the host has semver, but not in ^99');
  t.false(existsSync(path.join(modules, 'express')), 'express is shared: the host has a version in ^5');
  t.false(existsSync(path.join(modules, 'vela-fixture-stray')), 'an installed package that is no dependency stays out');
  t.is(versionIn(path.join(modules, 'vela-fixture-words')), '1.2.0');
  t.is(
    versionIn(path.join(modules, 'vela-fixture-letters')),
    '1.0.0',
    'a dependency of a bundled package goes to the top',
  );
  t.is(
    versionIn(path.join(modules, 'vela-fixture-pair', 'node_modules', 'vela-fixture-letters')),
    '2.0.0',
    'a nested node_modules comes with its package',
  );
  t.is(
    versionIn(path.join(modules, 'vela-fixture-linked')),
    '1.0.0',
    'a symlinked package is copied from its real folder',
  );
  t.is(
    versionIn(path.join(modules, 'vela-fixture-linked', 'node_modules', 'vela-fixture-letters')),
    '3.0.0',
    'found from the real folder, and nested under its dependent because another version holds the top',
  );

  const entries = await archiveEntries(archive);
  t.true(entries.every((entry) => entry.startsWith('package/')));
  t.deepEqual(
    entries.slice(0, 2),
    ['package/plugin.json', 'package/package.json'],
    'the manifest first: the loader reads it without unpacking the rest',
  );
  t.deepEqual(entries.slice(2), [...entries.slice(2)].sort(), 'then the other entries in a stable order');
  t.false(entries.some((entry) => entry.includes('.bin/')));
});

test('the plan names what is bundled and what is shared; a missing or out-of-range dependency stops the pack', (t) => {
  const plugin = writeOutsidePlugin();
  const plan = planBundle(plugin, readPackageJson(plugin));
  t.deepEqual(plan.bundled, ['semver', 'vela-fixture-linked', 'vela-fixture-pair', 'vela-fixture-words']);
  t.deepEqual(plan.shared, ['express']);
  t.deepEqual(
    plan.folders.map((f) => `${f.at}@${f.version}`),
    [
      'node_modules/semver@99.0.0',
      'node_modules/vela-fixture-letters@1.0.0',
      'node_modules/vela-fixture-linked@1.0.0',
      'node_modules/vela-fixture-linked/node_modules/vela-fixture-letters@3.0.0',
      'node_modules/vela-fixture-pair@1.0.0',
      'node_modules/vela-fixture-words@1.2.0',
    ],
    "the nested letters@2 comes with vela-fixture-pair's folder",
  );

  const other = tmp('missing');
  writeFileSync(
    path.join(other, 'package.json'),
    JSON.stringify({ name: 'vela-plugin-missing', dependencies: { 'vela-fixture-absent': '^1.0.0' } }),
  );
  const error = t.throws(() => planBundle(other, readPackageJson(other)));
  t.is((error as VelaError).code, 'E_PACK_DEPENDENCY');
  t.is(
    error!.message,
    `cannot pack ${other}: its dependency vela-fixture-absent@^1.0.0 is not installed (run npm install in the plugin folder)`,
  );

  const stale = tmp('stale');
  writeFileSync(
    path.join(stale, 'package.json'),
    JSON.stringify({ name: 'vela-plugin-stale', dependencies: { 'vela-fixture-old': '^2.0.0' } }),
  );
  writePackage(
    path.join(stale, 'node_modules', 'vela-fixture-old'),
    { name: 'vela-fixture-old', version: '1.0.0' },
    'exports.old = true;\n',
  );
  t.is(
    t.throws(() => planBundle(stale, readPackageJson(stale)))!.message,
    `cannot pack ${stale}: its dependency vela-fixture-old@^2.0.0 is installed at version 1.0.0 (${path.join(stale, 'node_modules', 'vela-fixture-old')})`,
  );
});

test('a packed plugin loads from a data folder outside the repository: its own packages first, the host SDK instance', async (t) => {
  const archive = await packPlugin(writeOutsidePlugin(), tmp('archives'));
  const vela = await startTestRuntime({ loaderPath: [archive] });
  t.teardown(() => vela.stop());
  t.false(vela.dataDir.startsWith(packageRoot), 'the plugin cache is outside the repository');
  const [unpackedDir] = readdirSync(path.join(vela.dataDir, 'plugin-cache'));
  t.regex(unpackedDir!, /^outside-1\.4\.0-[0-9a-f]{16}$/);
  t.true(
    existsSync(path.join(vela.dataDir, 'plugin-cache', unpackedDir!, 'package', 'node_modules', 'semver')),
    'unpacked with its node_modules',
  );

  const hello = await vela.fetch('search', '/api/outside/hello');
  t.is(hello.status, 200);
  t.deepEqual(await hello.json(), {
    text: 'HELLO!',
    words: 'vela-fixture-words@1.2.0 with vela-fixture-letters@1.0.0',
    pair: { which: 'vela-fixture-pair@1.0.0', deps: { 'vela-fixture-letters': 'vela-fixture-letters@2.0.0' } },
    linked: { which: 'vela-fixture-linked@1.0.0', deps: { 'vela-fixture-letters': 'vela-fixture-letters@3.0.0' } },
    semver: '99.0.0',
    expressRouter: 'function',
  });
  t.regex(hostSemver, /^7\./, 'the host still resolves its own semver');

  t.is((globalThis as Record<symbol, unknown>)[CAUGHT], VelaError, "vela/plugin gave the plugin the host's VelaError");
  const missing = await vela.fetch('search', '/api/outside/missing');
  t.is(missing.status, 404);
  t.deepEqual(await missing.json(), { error: 'not_found', message: 'no such greeting' });
  const locked = await vela.fetch('search', '/api/outside/locked');
  t.is(locked.status, 423, 'the runtime recognised the thrown VelaError as its own');
  t.deepEqual(await locked.json(), { error: 'greeting_locked', message: 'try again later' });
});

test('a worker task of a packed plugin imports its bundled dependencies', async (t) => {
  const archive = await packPlugin(writeOutsidePlugin(), tmp('archives'));
  const vela = await startTestRuntime({ loaderPath: [archive] });
  t.teardown(() => vela.stop());
  const res = await vela.fetch('search', '/api/outside/worker');
  t.is(res.status, 200);
  t.deepEqual(
    await res.json(),
    {
      text: 'FROM A WORKER!',
      words: 'vela-fixture-words@1.2.0 with vela-fixture-letters@1.0.0',
      semver: '99.0.0',
      expressRouter: 'function',
      conflict: 409,
      mainThread: false,
    },
    "bundled packages first, then the host's (express), and vela/plugin, as in the main thread",
  );
});

test("a CommonJS plugin folder (no package.json) gets the host's vela/plugin instance by require and by import", async (t) => {
  const loaderPath = await writePlugins(
    [
      {
        manifest: manifest('legacy', { consumes: ['workers'] }),
        files: {
          'index.ts': `
import { VelaError } from 'vela/plugin';
const { httpErrors } = require('vela/plugin');
const { describe } = require('./describe.cjs');

module.exports = {
  register(ctx) {
    const task = ctx.task(require('node:path').join(__dirname, 'tasks', 'status.ts'));
    ctx.routes((router) => {
      router.get('/api/legacy/kind', { access: 'public' }, (_req, res) => res.json({ moduleKind: typeof module.exports, described: describe() }));
      router.get('/api/legacy/locked', { access: 'public' }, () => { throw new VelaError('legacy_locked', 'locked by CommonJS', 423); });
      router.get('/api/legacy/missing', { access: 'public' }, () => { throw httpErrors.notFound('not here'); });
      router.get('/api/legacy/task', { access: 'public' }, async (_req, res) => res.json(await task(null)));
    });
  },
};
`,
          'describe.cjs': `const sdk = require('vela/plugin');\nexports.sdk = sdk;\nexports.describe = () => typeof sdk.definePlugin;\n`,
          'tasks/status.ts': `const { httpErrors } = require('vela/plugin');\nexport default function status() { return { status: httpErrors.conflict('x').status }; }\n`,
        },
      },
    ],
    tmp('legacy'),
  );
  t.false(existsSync(path.join(loaderPath, 'legacy', 'package.json')));
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());

  t.deepEqual(await (await vela.fetch('search', '/api/legacy/kind')).json(), {
    moduleKind: 'object',
    described: 'function',
  });
  const locked = await vela.fetch('search', '/api/legacy/locked');
  t.is(locked.status, 423, "an imported VelaError is the host's: the runtime keeps its code and status");
  t.deepEqual(await locked.json(), { error: 'legacy_locked', message: 'locked by CommonJS' });
  const missing = await vela.fetch('search', '/api/legacy/missing');
  t.is(missing.status, 404);
  t.deepEqual(await missing.json(), { error: 'not_found', message: 'not here' });
  const required = createRequire(path.join(loaderPath, 'legacy', 'index.ts'))(
    path.join(loaderPath, 'legacy', 'describe.cjs'),
  ) as {
    sdk: { VelaError: unknown };
  };
  t.is(required.sdk.VelaError, VelaError, "require('vela/plugin') is the host's module instance");
  t.deepEqual(
    await (await vela.fetch('search', '/api/legacy/task')).json(),
    { status: 409 },
    'its worker task requires vela/plugin too',
  );
});

test('a packed CommonJS plugin (package.json without "type") requires its bundled dependency, in its worker too, and the host SDK', async (t) => {
  const dir = path.join(tmp('commonjs'), 'commonjs');
  writePackage(
    path.join(dir, 'node_modules', 'vela-fixture-cjs'),
    { name: 'vela-fixture-cjs', version: '2.0.0' },
    `exports.which = 'vela-fixture-cjs@2.0.0';\n`,
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'vela-plugin-commonjs', version: '1.0.0', dependencies: { 'vela-fixture-cjs': '^2.0.0' } }),
  );
  writeFileSync(
    path.join(dir, 'plugin.json'),
    JSON.stringify(manifest('commonjs', { consumes: ['workers'], main: './index.js' })),
  );
  writeFileSync(
    path.join(dir, 'index.js'),
    `
const path = require('node:path');
const { VelaError } = require('vela/plugin');
const { which } = require('vela-fixture-cjs');
module.exports = {
  register(ctx) {
    const task = ctx.task(path.join(__dirname, 'task.js'));
    ctx.routes((router) => {
      router.get('/api/commonjs/which', { access: 'public' }, async (_req, res) => res.json({ main: which, worker: await task(null) }));
      router.get('/api/commonjs/locked', { access: 'public' }, () => { throw new VelaError('commonjs_locked', 'locked', 423); });
    });
  },
};
`,
  );
  writeFileSync(path.join(dir, 'task.js'), `module.exports = { default: () => require('vela-fixture-cjs').which };\n`);

  const archive = await packPlugin(dir, tmp('archives'));
  t.true((await archiveEntries(archive)).includes('package/node_modules/vela-fixture-cjs/index.js'));
  const vela = await startTestRuntime({ loaderPath: [archive] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/api/commonjs/which')).json(), {
    main: 'vela-fixture-cjs@2.0.0',
    worker: 'vela-fixture-cjs@2.0.0',
  });
  const locked = await vela.fetch('search', '/api/commonjs/locked');
  t.is(locked.status, 423);
  t.deepEqual(await locked.json(), { error: 'commonjs_locked', message: 'locked' });
});

/** Pack a bundled plugin and read its archive: the entries, its package.json, and whether a package is in it. */
async function packBundled(name: string) {
  const archive = await packPlugin(path.join(packageRoot, 'plugins', name), tmp('archives'));
  const entries = await archiveEntries(archive);
  const pkg = JSON.parse(await archiveFile(archive, 'package/package.json')) as { bundleDependencies?: string[] };
  return { entries, pkg, has: (folder: string) => entries.includes(`package/node_modules/${folder}/package.json`) };
}

test("the packed search plugin carries the spell checkers; express is the host's", async (t) => {
  const search = await packBundled('search');
  const declared = JSON.parse(readFileSync(path.join(packageRoot, 'plugins', 'search', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  t.deepEqual(
    search.pkg.bundleDependencies,
    Object.keys(declared.dependencies)
      .filter((name) => name !== 'express')
      .sort(),
    'every dependency it declares but express',
  );
  for (const name of ['nspell']) {
    t.true(search.pkg.bundleDependencies?.includes(name), name);
  }
  t.false(
    search.has('graphql') || search.has('graphiql') || search.has('react'),
    "GraphQL and GraphiQL are the graphql plugin's",
  );
  t.false(search.has('@vela/extraction') || search.has('tesseract.js'), "OCR is the ocr plugin's");
  t.false(search.has('express'));
  t.false(
    search.entries.some((e) => e.startsWith('package/test/')),
    'tests stay out',
  );
});

test('the packed ocr plugin carries busboy and the extraction library with its OCR engine and language data', async (t) => {
  const ocr = await packBundled('ocr');
  t.deepEqual(ocr.pkg.bundleDependencies, ['@fastify/busboy', '@vela/extraction']);
  // The extraction library is a workspace package (a link in node_modules): its sources come, its tests do not,
  // and its own dependencies come with it (OCR's engine and language data among them).
  t.true(ocr.entries.includes('package/node_modules/@vela/extraction/src/index.ts'));
  t.false(ocr.entries.some((e) => e.startsWith('package/node_modules/@vela/extraction/test/')));
  for (const dep of [
    '@fastify/busboy',
    'tesseract.js',
    'tesseract.js-core',
    '@tesseract.js-data/eng',
    '@tesseract.js-data/por',
    'pdfjs-dist',
    'mammoth',
    'exceljs',
  ])
    t.true(ocr.has(dep), dep);
  t.true(ocr.entries.includes('package/node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm'));
  t.false(
    ocr.entries.some((e) => e.endsWith('.wasm.js')),
    "tesseract.js-core's browser copies stay out (@vela/extraction's package.json)",
  );
  t.true(ocr.entries.includes('package/node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'));
  t.false(
    ocr.entries.some((e) => e.includes('/@tesseract.js-data/eng/4.0.0/')),
    'the language data the extraction library does not read',
  );
  t.true(ocr.entries.includes('package/node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs'));
  t.false(ocr.entries.some((e) => e.startsWith('package/node_modules/pdfjs-dist/web/')));
  t.false(
    ocr.entries.some((e) => e.startsWith('package/test/')),
    'tests stay out',
  );
});

test("the packed connector carries its parsers and their dependencies; express and node-cron are the host's", async (t) => {
  const connector = await packBundled('connector');
  t.deepEqual(connector.pkg.bundleDependencies, ['@vela/extraction', 'cheerio', 'picomatch', 'robots-parser']);
  for (const dep of [
    '@vela/extraction',
    'cheerio',
    'mammoth',
    'pdfjs-dist',
    'picomatch',
    'robots-parser',
    'domhandler',
    'jszip',
    'tesseract.js',
    'exceljs',
  ]) {
    t.true(connector.has(dep), dep);
  }
  t.is(
    connector.has('@napi-rs/canvas'),
    existsSync(path.join(packageRoot, 'node_modules', '@napi-rs', 'canvas', 'package.json')),
    "pdfjs-dist's optional canvas comes along when it is installed",
  );
  t.false(connector.has('express') || connector.has('node-cron'));
});

test('vela.pack in package.json: a files-only package comes without its dependencies, and excluded files stay out wherever their package lands', async (t) => {
  const dir = path.join(tmp('pack-options'), 'assets');
  const modules = path.join(dir, 'node_modules');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifest('assets')));
  writeFileSync(path.join(dir, 'index.ts'), 'export default { register() {} };\n');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'vela-plugin-assets',
      version: '1.0.0',
      dependencies: { 'vela-fixture-ui': '^1.0.0', 'vela-fixture-reader': '^1.0.0' },
      vela: { pack: { filesOnly: ['vela-fixture-ui'], exclude: { 'vela-fixture-ui': ['src/**'] } } },
    }),
  );
  // A UI bundle served as a file: its dependencies (and its own node_modules) are built into it.
  writeReporter(path.join(modules, 'vela-fixture-ui'), 'vela-fixture-ui', '1.0.0', {
    'vela-fixture-widgets': '^1.0.0',
  });
  writeFileSync(path.join(modules, 'vela-fixture-ui', 'bundle.min.js'), 'window.ui = 1;\n');
  mkdirSync(path.join(modules, 'vela-fixture-ui', 'src'));
  writeFileSync(path.join(modules, 'vela-fixture-ui', 'src', 'ui.js'), 'export {};\n');
  writeReporter(
    path.join(modules, 'vela-fixture-ui', 'node_modules', 'vela-fixture-nested'),
    'vela-fixture-nested',
    '1.0.0',
  );
  writeReporter(path.join(modules, 'vela-fixture-widgets'), 'vela-fixture-widgets', '1.0.0');
  // A library that knows which files of its dependency it loads, and says so in its own package.json.
  writePackage(
    path.join(modules, 'vela-fixture-reader'),
    {
      name: 'vela-fixture-reader',
      version: '1.0.0',
      dependencies: { 'vela-fixture-data': '^1.0.0' },
      vela: { pack: { exclude: { 'vela-fixture-data': ['old/**', '*.browser.js'] } } },
    },
    'exports.read = () => require("vela-fixture-data");\n',
  );
  writePackage(
    path.join(modules, 'vela-fixture-data'),
    { name: 'vela-fixture-data', version: '1.0.0' },
    'module.exports = "data";\n',
  );
  for (const file of ['old/model.bin', 'new/model.bin', 'data.browser.js', 'new/data.browser.js']) {
    mkdirSync(path.dirname(path.join(modules, 'vela-fixture-data', file)), { recursive: true });
    writeFileSync(path.join(modules, 'vela-fixture-data', file), file);
  }

  const plan = planBundle(dir, readPackageJson(dir));
  t.deepEqual(plan.bundled, ['vela-fixture-reader', 'vela-fixture-ui']);
  t.deepEqual(
    plan.folders.map((folder) => folder.at),
    ['node_modules/vela-fixture-data', 'node_modules/vela-fixture-reader', 'node_modules/vela-fixture-ui'],
    "the files-only package's dependency is not followed",
  );
  const entries = (await archiveEntries(await packPlugin(dir, tmp('archives')))).filter((entry) =>
    entry.startsWith('package/node_modules/'),
  );
  t.deepEqual(entries.sort(), [
    'package/node_modules/vela-fixture-data/index.js',
    'package/node_modules/vela-fixture-data/new/data.browser.js',
    'package/node_modules/vela-fixture-data/new/model.bin',
    'package/node_modules/vela-fixture-data/package.json',
    'package/node_modules/vela-fixture-reader/index.js',
    'package/node_modules/vela-fixture-reader/package.json',
    'package/node_modules/vela-fixture-ui/bundle.min.js',
    'package/node_modules/vela-fixture-ui/index.js',
    'package/node_modules/vela-fixture-ui/package.json',
  ]);
});

test('the packed gateway carries no node_modules: the host has all it needs', async (t) => {
  const gatewayDir = path.join(packageRoot, 'plugins', 'gateway');
  t.deepEqual(
    planBundle(gatewayDir, readPackageJson(gatewayDir)).shared,
    ['express', 'undici'],
    'it lists express and undici, which the host has in its range',
  );
  const gateway = await packBundled('gateway');
  t.is(gateway.pkg.bundleDependencies, undefined);
  t.false(gateway.entries.some((e) => e.includes('node_modules/')));
  t.true(gateway.entries.includes('package/plugin.json'));
});
