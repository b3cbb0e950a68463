import type { RequestHandler } from 'express';
import type { Accounts, AdminAccess, Logger } from '../../../runtime/index.js';
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
 * `mountConsole(router, deps)`): stores, OAuth2 services, reports, monitor and the admin guard.
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
  access: AdminAccess;
  /** Express middleware: the runtime's administrator (Basic or session cookie, CSRF token on cookie writes), else 401/403. */
  requireAdmin: RequestHandler;
  logger: Logger;
}
