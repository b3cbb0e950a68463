// `vela/plugin`: the one entry a plugin imports the runtime through. The loader resolves this bare name
// to the host's own copy wherever the plugin lives (a folder on the loader path, an unpacked archive, a
// folder outside the repository), so values such as VelaError are the host's single instance.
import type { Accounts } from '../auth/accounts.js';
import type { HttpClient } from '../http/http-client.js';
import type { Logger } from '../logger.js';
import type { OutboundGuard } from '../network/outbound-guard.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { Database } from '../storage/database.js';
import type { WorkerPool } from '../workers/worker-pool.js';

// Types of the libraries the runtime hands plugins (express requests, knex migrations).
export type { NextFunction, Request, RequestHandler, Response } from 'express';
export type { Knex } from 'knex';
// Hook classes from the host's tapable, so a plugin needs no tapable of its own.
export {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  HookMap,
  SyncBailHook,
  SyncHook,
  SyncWaterfallHook,
} from 'tapable';
export type { KeyVerifier, Principal, RouteAccess } from '../auth/access-policy.js';
export { ADMIN_SCOPE, principalOf } from '../auth/access-policy.js';
export type { Account, Session } from '../auth/accounts.js';
export { readCookie, SESSION_COOKIE } from '../auth/accounts.js';
/** A client address as per-client limits count it: IPv4, or the /64 an IPv6 address is in. */
export { addressKey } from '../auth/password-attempts.js';
export { sameSecret, sha256Hex } from '../auth/secret-digest.js';
export type { ChangeFeedMode, ChangeInfo, ChangeListener, Changes } from '../changes/change-feed.js';
export type { JsonSchema, ValidationResult } from '../config/schema-validation.js';
export { validateAgainst } from '../config/schema-validation.js';
export type {
  ConsoleExtension,
  ConsoleExtensions,
  ConsoleNavItem,
  ConsoleOptions,
  ConsolePage,
  ConsoleTabs,
  ConsoleUser,
  ConsoleView,
} from '../console/console-kit.js';
export { CONSOLE_PAGE_POLICY, ConsoleKit, escapeHtml, safeNext } from '../console/console-kit.js';
export { excerpt, httpErrors, VelaError } from '../errors.js';
// The registries plugins augment (`declare module 'vela/plugin' { interface HookRegistry {...} }`):
// declared in modules of their own, which the runtime's modules import without importing this entry;
// TypeScript merges an augmentation of this module into the interfaces it re-exports.
export type { HookName, HookRegistry } from '../hooks/hook-registry.js';
export type {
  GateDecision,
  HealthCollector,
  HttpRequestEvent,
  HttpResponseEvent,
  ReadyEvent,
  RuntimeHooks,
} from '../hooks/runtime-hooks.js';
export type { ApiRouter } from '../http/api-router.js';
export type { Collection, CollectionSpec } from '../http/collection-routes.js';
export { collectionRoutes } from '../http/collection-routes.js';
export type { DeleteSpec } from '../http/delete-route.js';
export { deletedSchema, deleteRoute } from '../http/delete-route.js';
export { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop.js';
export type { ItemMethod, ItemSpec } from '../http/item-route.js';
export { itemRoute } from '../http/item-route.js';
export { sendJson, sendJsonBytes } from '../http/json-answer.js';
export type { ListSpec } from '../http/list-route.js';
export { listRoute } from '../http/list-route.js';
export { livenessRoute } from '../http/liveness-route.js';
export type { ResponseSpec, RouteSpec } from '../http/openapi-registry.js';
export type { MemberSchema, ShortSchema } from '../http/record-schemas.js';
export { bodySchema, ignoredMembers, memberSchema, recordSchema, withoutDefaults } from '../http/record-schemas.js';
export {
  checkTypedText,
  normalizeLocale,
  pathParams,
  SITE_NAME_PATTERN,
  siteRefSchema,
} from '../http/request-input.js';
export { answers } from '../http/route-answers.js';
export type { InGroup, RouteDefaults, RouteGroup } from '../http/route-group.js';
export { SECURITY_HEADERS, VELA_COOKIE_PREFIX, VELA_CREDENTIAL_HEADERS } from '../http/security.js';
export { sessionCookie } from '../http/session-routes.js';
export { loggableText } from '../logger.js';
export { OutboundRefused } from '../network/outbound-guard.js';
export type { PluginManifest } from '../plugins/manifest.js';
export type {
  ConsumesEntry,
  ConsumesList,
  HealthCheckOutcome,
  PluginAccess,
  PluginContext,
  PluginDefinition,
  PluginErrors,
  PluginHooks,
  PluginLifecycle,
  RuntimeInfo,
  Tapable,
} from '../plugins/plugin-api.js';
export { definePlugin } from '../plugins/plugin-api.js';
export type { ServiceName, ServiceRegistry } from '../plugins/service-registry.js';
export { processAlive } from '../process-alive.js';
export type { RateLimitedLogOptions } from '../rate-limited-log.js';
export { RateLimitedLog, REFUSAL_LOG_LIMIT } from '../rate-limited-log.js';
export type { SecretBoxOptions } from '../secrets/secret-box.js';
export { parseSecretKey, SecretBox, secretHint } from '../secrets/secret-box.js';
// The store kit: row values, JSON columns, duplicate keys, tables held in memory and kept fresh (docs/PLUGINS.md).
export type { CachedTableOptions } from '../storage/cached-table.js';
export { CachedTable } from '../storage/cached-table.js';
export type { RowPlace } from '../storage/json-column.js';
export { CorruptRowError, isCorruptRow, readJson, writeJson } from '../storage/json-column.js';
export { dropTables } from '../storage/migrations.js';
export type { ColumnCodec, RowCodec, RowMapping, TableRow } from '../storage/row-codec.js';
export { col, rowCodec } from '../storage/row-codec.js';
export { nowIso, toBool, toIso, toIsoOrNull, toMillis } from '../storage/row-values.js';
export type { SiteSettingsMeta, SiteSettingsTableOptions } from '../storage/site-settings-table.js';
export { SiteSettingsTable } from '../storage/site-settings-table.js';
export { cachedBy, chunks, valuesRows } from '../storage/sql-rows.js';
export type { StoreRefreshOptions } from '../storage/store-refresh.js';
export { StoreRefresh } from '../storage/store-refresh.js';
export { conflictError, isUniqueViolation, refuseDuplicate } from '../storage/unique-conflict.js';
export type { TaskRunner } from '../workers/worker-pool.js';
export type { Accounts, Database, HttpClient, Logger, OutboundGuard, Scheduler, WorkerPool };
/** The guarded fetch (`OutboundGuard.fetch`), as handed to code that fetches on a user's behalf. */
export type OutboundFetch = OutboundGuard['fetch'];
export type OutboundResponse = Awaited<ReturnType<OutboundFetch>>;
