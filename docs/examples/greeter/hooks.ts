import type { SyncWaterfallHook } from 'tapable';
import type { Tapable } from '../../../runtime/index.js';

export interface Greeting {
  name: string;
  text: string;
}

/** Every hook this plugin owns, in one object (the manifest lists them as greeter.<key>). */
export interface GreeterHooks {
  /** Change a greeting before it is stored and sent. */
  beforeGreet: SyncWaterfallHook<[Greeting]>;
}

/** tapable comes from the runtime (ctx.hooks.declare passes it), so this folder needs no node_modules. */
export function createGreeterHooks(t: Tapable): GreeterHooks {
  return { beforeGreet: new t.SyncWaterfallHook<[Greeting]>(['greeting']) };
}

// Other plugins get compile-time checks when they tap 'greeter.beforeGreet'.
declare module '../../../runtime/hooks/hook-registry.js' {
  interface HookRegistry {
    'greeter.beforeGreet': GreeterHooks['beforeGreet'];
  }
}
