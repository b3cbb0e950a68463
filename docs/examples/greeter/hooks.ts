import { SyncWaterfallHook } from 'vela/plugin';
import type { GreeterHooks, Greeting } from './api.js';

/** The hook classes come from the runtime (`vela/plugin`), so this folder needs no node_modules. */
export function createGreeterHooks(): GreeterHooks {
  return { beforeGreet: new SyncWaterfallHook<[Greeting]>(['greeting']) };
}
