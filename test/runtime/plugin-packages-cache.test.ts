import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { manifest, packPlugin, startTestRuntime, tempFolders, writePlugins } from 'vela/testing';
import { scanLoaderPath } from '../../runtime/plugins/discover.js';

// The plugin cache (<dataDir>/plugin-cache): what a killed start or a replaced archive left there goes at the
// next scan of the loader path, and a start unpacks only the archives of the plugins it loads.

const folders = tempFolders();
const tmp = folders.make;
test.after.always(folders.removeAll);

/** A plugin folder answering `GET /<name>` with `text`, written into a fresh folder; its path. */
async function routePlugin(name: string, text: string, version = '1.0.0'): Promise<string> {
  const dir = await writePlugins(
    [
      {
        manifest: manifest(name, { version }),
        files: {
          'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/${name}', { access: 'public' }, (_q, res) => res.json({ text: '${text}' }))); } };`,
        },
      },
    ],
    tmp('source'),
  );
  return path.join(dir, name);
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test('a scan removes staging folders of processes that are gone and the folders of replaced archives, and keeps the rest', async (t) => {
  const archives = tmp('archives');
  const archive = await packPlugin(await routePlugin('alpha', 'first build'), archives);
  const cache = tmp('cache');

  const [first] = (await scanLoaderPath([archives], cache)).plugins;
  const firstFolder = path.basename(first!.origin.kind === 'archive' ? first!.origin.cacheFolder : '');
  t.regex(firstFolder, /^alpha-1\.0\.0-[0-9a-f]{16}$/);
  mkdirSync(path.join(cache, firstFolder, 'package'), { recursive: true });
  writeFileSync(path.join(cache, firstFolder, 'package', 'plugin.json'), '{}');

  const dead = `.staging-alpha-1.0.0-0123456789abcdef-${deadPid()}`;
  const live = `.staging-beta-1.0.0-0123456789abcdef-${process.ppid}`;
  const older = 'alpha-0.9.0-fedcba9876543210';
  const unrelated = 'beta-1.0.0-0123456789abcdef';
  const prefixed = 'alpha-tools-1.0.0-0123456789abcdef';
  for (const entry of [dead, live, older, unrelated, prefixed]) mkdirSync(path.join(cache, entry));

  // The same plugin, rebuilt: same name and version, other content, so another hash.
  rmSync(archive);
  await packPlugin(await routePlugin('alpha', 'second build'), archives);
  const [second] = (await scanLoaderPath([archives], cache)).plugins;
  const secondFolder = path.basename(second!.origin.kind === 'archive' ? second!.origin.cacheFolder : '');
  t.not(secondFolder, firstFolder);

  t.deepEqual(
    readdirSync(cache).sort(),
    [live, prefixed, unrelated].sort(),
    "the dead process's staging folder, the first build's folder and the older version's go; a live process's staging folder, a plugin not on the loader path and another plugin whose name starts alike stay",
  );
});

test('a start unpacks only the archives of the plugins it loads', async (t) => {
  const archives = tmp('archives');
  await packPlugin(await routePlugin('alpha', 'from alpha'), archives);
  await packPlugin(await routePlugin('beta', 'from beta'), archives);
  const vela = await startTestRuntime({ loaderPath: [archives], plugins: ['alpha'] });
  t.teardown(() => vela.stop());

  t.deepEqual(await (await vela.fetch('search', '/alpha')).json(), { text: 'from alpha' });
  const cache = readdirSync(path.join(vela.dataDir, 'plugin-cache'));
  t.is(cache.length, 1);
  t.regex(cache[0]!, /^alpha-1\.0\.0-[0-9a-f]{16}$/, 'beta is described from its manifest, never unpacked');
  t.false(existsSync(path.join(vela.dataDir, 'plugin-cache', cache[0]!, 'package', 'node_modules')));
});
