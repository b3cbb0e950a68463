import { AsyncSeriesHook, SyncHook } from 'vela/plugin';
import type {
  IndexedChanges,
  SearchEngines,
  SearchedEvent,
  SearchHooks,
  SiteExport,
  SiteImport,
  SiteMonitoring,
  VectorRetrievers,
} from './api.js';

/** The search plugin's hooks (the manifest lists them as search.<key>; their types are in api.ts). */
export function createSearchHooks(): SearchHooks {
  return {
    engines: new SyncHook<[SearchEngines]>(['engines']),
    searched: new SyncHook<[SearchedEvent]>(['event']),
    siteDeleted: new AsyncSeriesHook<[{ siteId: string }]>(['event']),
    vectors: new SyncHook<[VectorRetrievers]>(['retrievers']),
    indexed: new SyncHook<[IndexedChanges]>(['changes']),
    monitoring: new AsyncSeriesHook<[SiteMonitoring]>(['monitoring']),
    siteExport: new AsyncSeriesHook<[SiteExport]>(['site']),
    siteImport: new AsyncSeriesHook<[SiteImport]>(['site']),
  };
}
