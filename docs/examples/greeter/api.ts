// The greeter's published contract: types and service names only, for plugins that use it
// (`import type { Greetings } from '<path>/greeter/api.js'`) and for the greeter's own files.
import type { SyncWaterfallHook } from 'vela/plugin';

export interface Greeting {
  name: string;
  text: string;
}

/** The service `greeter.greetings`. */
export interface Greetings {
  greet(name: string): Promise<Greeting>;
  count(): Promise<number>;
}

/** Every hook this plugin owns, in one object (the manifest lists them as greeter.<key>). */
export interface GreeterHooks {
  /** Change a greeting before it is stored and sent. */
  beforeGreet: SyncWaterfallHook<[Greeting]>;
}

// Other plugins get compile-time checks when they resolve 'greeter.greetings' or tap 'greeter.beforeGreet'.
declare module 'vela/plugin' {
  interface ServiceRegistry {
    'greeter.greetings': Greetings;
  }
  interface HookRegistry {
    'greeter.beforeGreet': GreeterHooks['beforeGreet'];
  }
}
