// The runtime's public surface for plugin authors and tests.
export { definePlugin } from './plugins/plugin-api.js';
export type { PluginContext, PluginDefinition, PluginHooks, PluginErrors, HealthCheckOutcome, Tapable } from './plugins/plugin-api.js';
export type { PluginManifest } from './plugins/manifest.js';
export type { HookRegistry, HookName } from './hooks/hook-registry.js';
export type { RuntimeHooks, ReadyEvent, HealthCollector, HttpRequestEvent, HttpResponseEvent, GateDecision } from './hooks/runtime-hooks.js';
export type { ApiRouter } from './http/api-router.js';
export type { RouteSpec, ResponseSpec } from './http/openapi-registry.js';
export type { Database } from './storage/database.js';
export type { WorkerPool, TaskRunner } from './workers/worker-pool.js';
export type { Scheduler } from './scheduler/scheduler.js';
export type { HttpClient } from './http/http-client.js';
export type { Accounts, Account } from './auth/accounts.js';
export type { RuntimeConfig } from './config/load-config.js';
export type { JsonSchema } from './config/schema-validation.js';
export { VelaError, httpErrors } from './errors.js';
export { Runtime } from './lifecycle/runtime.js';
export { RUNTIME_VERSION } from './paths.js';
