// `vela/testing`: what a plugin's tests use to start real runtimes and their peers.

export type { DeepPartial } from '../config/load-config.js';
export { createLogger } from '../logger.js';
export { OutboundGuard } from '../network/outbound-guard.js';
export { packageRoot } from '../paths.js';
export { browserAvailable, CHROMIUM, CHROMIUM_ARGS } from '../testing/browser.js';
export type { ChildRun, ChildRuntime } from '../testing/child-runtime.js';
export { childEnv, runVela, startChildRuntime, VELA_BIN } from '../testing/child-runtime.js';
export { eventually } from '../testing/eventually.js';
export type { TestPostgres } from '../testing/test-postgres.js';
export { createTestPostgres, POSTGRES_ADMIN_URL, postgresReachable } from '../testing/test-postgres.js';
export type { LogLine, PluginFixture, TestRuntime, TestRuntimeOptions } from '../testing/test-runtime.js';
export { copyPlugin, manifest, startTestRuntime, TEST_ADMIN, writePlugins } from '../testing/test-runtime.js';
export { WorkerPool } from '../workers/worker-pool.js';
