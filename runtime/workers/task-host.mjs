// Runs inside each piscina worker thread: loads the task module a plugin named and calls its export.
// Plain JavaScript on purpose, so the pool starts the same way under tsx (tests), after a build, or
// from a plugin archive; TypeScript task files get the tsx loader registered once, on first need.
import { pathToFileURL } from 'node:url';
import { threadId, workerData } from 'node:worker_threads';
import { installPluginResolution } from '../module-resolution/install-resolution.mjs';

// Task modules of plugins resolve `vela/plugin` and the host's packages as their plugin's main thread does.
installPluginResolution();

const modules = new Map();
let tsxRegistered = false;

async function load(file) {
  let mod = modules.get(file);
  if (mod) return mod;
  const url = pathToFileURL(file).href;
  try {
    mod = await import(url);
  } catch (error) {
    if (!/\.[cm]?ts$/.test(file) || tsxRegistered || error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    // Module hooks of the main thread do not reach worker threads on Node 20; register tsx's ESM
    // and CommonJS hooks here (a task folder may lack a package.json saying "type": "module").
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    esm.register();
    cjs.register();
    tsxRegistered = true;
    // The failed import stays cached under its URL; a query string makes a new module record.
    mod = await import(`${url}?tsx`);
  }
  modules.set(file, mod);
  return mod;
}

export default async function runTask({ file, exportName, payload }) {
  try {
    const mod = await load(file);
    // A task module loaded as CommonJS (no "type": "module" near it) keeps its exports under default.
    const fn = typeof mod[exportName] === 'function' ? mod[exportName] : mod.default?.[exportName];
    if (typeof fn !== 'function') throw new Error(`task module ${file} has no exported function "${exportName}"`);
    return await fn(payload);
  } finally {
    retireWhenLarge();
  }
}

/**
 * A thread that holds more than the pool's threshold after a task (its heap, committed, and the memory outside
 * it that its objects hold: buffers, canvases) ends and is replaced by a fresh one: V8 and native allocators
 * rarely give memory back, so one large document would otherwise keep it for the thread's life. The flag is
 * set before piscina posts this task's answer, so the pool's balancer gives the thread no further task; the
 * thread ends once the answer is out.
 */
function retireWhenLarge() {
  const { retiring, recycleAboveBytes } = workerData ?? {};
  if (!(retiring instanceof Int32Array) || !(recycleAboveBytes > 0)) return;
  const { heapTotal, external } = process.memoryUsage();
  if (heapTotal + external <= recycleAboveBytes) return;
  Atomics.store(retiring, threadId % retiring.length, threadId);
  setImmediate(() => process.exit(0));
}

/** Nothing: a task whose only effect is to make the pool start a thread for the tasks waiting in its queue. */
export function nothing() {}
