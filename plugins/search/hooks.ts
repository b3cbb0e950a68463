import { SyncHook } from 'vela/plugin';
import type { SearchEngines, SearchHooks } from './api.js';

/** The search plugin's hooks (the manifest lists them as search.<key>; their types are in api.ts). */
export function createSearchHooks(): SearchHooks {
  return { engines: new SyncHook<[SearchEngines]>(['engines']) };
}
