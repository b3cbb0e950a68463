/** The gateway's configuration section (config.schema.json, defaults filled by the runtime). */
export interface GatewayConfig {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  codeTtlSeconds: number;
  syncMs: number;
  proxy: { defaultTimeoutMs: number; maxSocketsPerUpstream: number; maxForwardedHeadBytes: number };
  responseTimes: { flushMs: number; bufferSize: number; retentionDays: number };
  monitoring: { cron: string; timeoutMs: number };
}
