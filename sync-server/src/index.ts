/**
 * The sync server (issue 3 item 3): Hocuspocus with session-cookie auth and Postgres
 * persistence, mountable on the api's HTTP server or run as its own process (`server.ts`).
 */
export { attachSyncServer, type SyncAttachment } from './attach.ts'
export {
  closeSyncServer,
  createSyncServer,
  type SyncServer,
  type SyncServerOptions,
} from './create-sync-server.ts'
export { createDocumentGateway, type DocumentGatewayOptions } from './document-gateway.ts'
export { SYNC_SETTING_NAMES } from './env.ts'
export type { SyncContext } from './extensions/auth.ts'
export type { SyncLogger } from './logger.ts'
export { type MetricsServer, metricsWhere, startMetricsServer } from './metrics-endpoint.ts'
export { type RunningSyncServer, startSyncServer } from './server.ts'
