import type { HookRegistry } from '../sdk/plugin.js';

// HookRegistry is declared in the SDK entry (runtime/sdk/plugin.ts), the module plugins augment as
// 'vela/plugin': TypeScript merges an augmentation only into the module that declares the interface.
export type { HookRegistry };

export type HookName = keyof HookRegistry & string;

export type SyncTapFn<H> = H extends { tap(options: never, fn: infer F): void } ? F : never;
export type PromiseTapFn<H> = H extends { tapPromise(options: never, fn: infer F): void } ? F : never;
export type MapEntry<H> = H extends { for(key: never): infer E } ? E : never;
