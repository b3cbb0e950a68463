// `vela/testing`: what a plugin's tests use to start real runtimes and their peers.

export type { DeepPartial } from '../config/load-config.js';
export { createLogger } from '../logger.js';
export { OutboundGuard } from '../network/outbound-guard.js';
export { packageRoot } from '../paths.js';
export { packPlugin } from '../plugins/pack-plugin.js';
export type { ApiDocument } from '../testing/api-document.js';
export { apiDocument, describedPaths, pluginTraces } from '../testing/api-document.js';
export { onBothDatabases } from '../testing/both-databases.js';
export type { PageLayout } from '../testing/browser.js';
export {
  browserAvailable,
  CHROMIUM,
  CHROMIUM_ARGS,
  layoutProblems,
  pageLayout,
  pageLayoutProblems,
  screenshotDir,
  VIEWPORTS,
} from '../testing/browser.js';
export type { BrowserPage, InjectionWatch } from '../testing/browser-page.js';
export { launchChromium, openBrowserPage, submitConsoleSignIn, watchInjections } from '../testing/browser-page.js';
export type { BrowserSuite, BrowserSuiteOptions } from '../testing/browser-suite.js';
export { browserSuite } from '../testing/browser-suite.js';
export type { JsonAnswer } from '../testing/call-service.js';
export { callService, serviceCaller } from '../testing/call-service.js';
export type { ChildRun, ChildRuntime, PackedHome, SharedChildrenOptions } from '../testing/child-runtime.js';
export {
  CHILD_ADMIN_AUTH,
  callChild,
  childCaller,
  childEnv,
  packedHome,
  runVela,
  sharedDatabaseTest,
  startChildRuntime,
  startConfiguredChild,
  startSharedChildren,
  VELA_BIN,
} from '../testing/child-runtime.js';
export { childStartArgs } from '../testing/child-start-args.js';
export { consoleSession, setCookie } from '../testing/console-session.js';
export { DELAY_ROUNDS, eventually, measureRounds, median, reportDelays, timeUntil } from '../testing/eventually.js';
export type { PackedRun } from '../testing/packed-plugin.js';
export { archiveEntries, archiveOrigins, packedProblems, startPacked } from '../testing/packed-plugin.js';
export type { RawAnswer, RawRequestOptions } from '../testing/raw-request.js';
export { rawRequest } from '../testing/raw-request.js';
export type { TcpProxy } from '../testing/tcp-proxy.js';
export { startTcpProxy } from '../testing/tcp-proxy.js';
export type { TempFolders } from '../testing/temp-folders.js';
export { tempFolders } from '../testing/temp-folders.js';
export type { Teardowns } from '../testing/test-folder.js';
export { testFolder } from '../testing/test-folder.js';
export type { TestPostgres, TestTeardown } from '../testing/test-postgres.js';
export {
  createTestPostgres,
  POSTGRES_ADMIN_URL,
  postgresClient,
  postgresIndexes,
  postgresProxy,
  postgresReachable,
  testDatabase,
} from '../testing/test-postgres.js';
export type { LogLine, PluginFixture, TestRuntime, TestRuntimeOptions } from '../testing/test-runtime.js';
export {
  copyPlugin,
  manifest,
  startTestRuntime,
  startTestRuntimeFor,
  TEST_ADMIN,
  writePlugins,
} from '../testing/test-runtime.js';
export { WorkerPool } from '../workers/worker-pool.js';
