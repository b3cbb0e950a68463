/**
 * Every hook any loaded code can tap, by its full name `<owner>.<hook>`. The runtime's hooks are
 * listed in runtime-hooks.ts; a plugin adds its own with module augmentation in its hooks.ts:
 *
 *   declare module '../../runtime/hooks/hook-registry.js' {
 *     interface HookRegistry { 'search.beforeQuery': AsyncSeriesWaterfallHook<[Query]> }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface HookRegistry {}

export type HookName = keyof HookRegistry & string;

/** What the bus needs of a tapable hook or HookMap. */
export interface AnyHook {
  tap?: (options: unknown, fn: never) => void;
}

export type SyncTapFn<H> = H extends { tap(options: any, fn: infer F): void } ? F : never;
export type PromiseTapFn<H> = H extends { tapPromise(options: any, fn: infer F): void } ? F : never;
export type MapEntry<H> = H extends { for(key: any): infer E } ? E : never;
