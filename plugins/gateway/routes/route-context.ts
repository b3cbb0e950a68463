import type { Accounts, Logger } from 'vela/plugin';
import type { GatewayConfig } from '../config.js';
import type { ResponseTimeRecorder } from '../metrics/response-time-recorder.js';
import type { ResponseTimeReports } from '../metrics/response-time-report.js';
import type { UpstreamMonitor } from '../monitoring/upstream-monitor.js';
import type { CodeStore } from '../oauth/code-store.js';
import type { TokenEndpoint } from '../oauth/token-endpoint.js';
import type { TokenStore } from '../oauth/token-store.js';
import type { AppStore } from '../store/app-store.js';
import type { MappingStore } from '../store/mapping-store.js';

/**
 * The gateway's domain, built once in index.ts and shared by the route files (and the console's
 * `mountConsole(router, deps)`): stores, OAuth2 services, reports and monitor.
 */
export interface GatewayDomain {
  config: GatewayConfig;
  mappings: MappingStore;
  apps: AppStore;
  tokens: TokenStore;
  codes: CodeStore;
  tokenEndpoint: TokenEndpoint;
  recorder: ResponseTimeRecorder;
  reports: ResponseTimeReports;
  monitor: UpstreamMonitor;
  accounts: Accounts;
  /**
   * The gateway's base URLs as clients reach it, never from the Host header: the first is the OAuth2 issuer; the
   * console receivers are under any.
   */
  publicUrls(): string[];
  logger: Logger;
}
