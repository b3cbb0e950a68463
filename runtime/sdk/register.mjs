// `node --import=tsx --import=./runtime/sdk/register.mjs`: plugin code imported directly (by tests,
// benchmarks) resolves `vela/plugin` as it does when the runtime loads it. Needs tsx registered first.
// Worker threads run --import preloads too, where tsx's hooks do not apply on Node 20: the pool's task
// host installs the resolution there itself.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const { registerPluginResolution } = await import('./resolution.ts');
  registerPluginResolution();
}
