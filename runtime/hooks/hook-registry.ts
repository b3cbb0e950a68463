import type { RuntimeHooks } from './runtime-hooks.js';

/**
 * Every hook any loaded code can tap, by its full name `<owner>.<hook>`. A plugin adds the hooks it owns
 * by augmenting the SDK entry, which re-exports this interface, in its api.ts:
 *
 *   declare module 'vela/plugin' {
 *     interface HookRegistry { 'search.beforeQuery': AsyncSeriesWaterfallHook<[Query]> }
 *   }
 */
export interface HookRegistry {
  'runtime.ready': RuntimeHooks['ready'];
  'runtime.shutdown': RuntimeHooks['shutdown'];
  'runtime.health': RuntimeHooks['health'];
  'runtime.httpRequest': RuntimeHooks['httpRequest'];
  'runtime.httpResponse': RuntimeHooks['httpResponse'];
}

export type HookName = keyof HookRegistry & string;

export type SyncTapFn<H> = H extends { tap(options: never, fn: infer F): void } ? F : never;
export type PromiseTapFn<H> = H extends { tapPromise(options: never, fn: infer F): void } ? F : never;
export type MapEntry<H> = H extends { for(key: never): infer E } ? E : never;
