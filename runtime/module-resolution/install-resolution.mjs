// Installs the plugin resolution rules (resolve-hooks.mjs) in this thread: the ES module hooks, and the
// same rules for CommonJS `require`, which Node 20's module hooks do not see. Plain JavaScript, so the
// worker threads' task host can install them before tsx is registered there.
import Module, { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const hostRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The SDK's bare names and the host files they stand for (the package's `exports`): paths, not imports, so
 * this plumbing, which worker threads install too, depends on nothing of the runtime.
 */
const sdkEntries = {
  'vela/plugin': fileURLToPath(new URL('../sdk/plugin.ts', import.meta.url)),
  'vela/testing': fileURLToPath(new URL('../sdk/testing.ts', import.meta.url)),
};

let installed = false;

/** `requireTargets` overrides what `require()` of an SDK name loads (the main thread's CommonJS shim). */
export function installPluginResolution(requireTargets = {}) {
  if (installed) return;
  installed = true;
  const sdk = Object.fromEntries(Object.entries(sdkEntries).map(([name, file]) => [name, pathToFileURL(file).href]));
  register('./resolve-hooks.mjs', import.meta.url, { data: { sdk, hostParent: pathToFileURL(hostRoot).href } });
  const targets = { ...sdkEntries, ...requireTargets };
  const hostModule = {
    id: hostRoot,
    filename: path.join(hostRoot, 'package.json'),
    paths: Module._nodeModulePaths(hostRoot),
  };
  const original = Module._resolveFilename;
  Module._resolveFilename = function resolveFilename(request, parent, ...rest) {
    if (Object.hasOwn(targets, request)) return targets[request];
    try {
      return original.call(this, request, parent, ...rest);
    } catch (error) {
      if (error?.code !== 'MODULE_NOT_FOUND' || /^[./]/.test(request) || parent?.filename?.startsWith(hostRoot))
        throw error;
      return original.call(this, request, hostModule, ...rest);
    }
  };
}
