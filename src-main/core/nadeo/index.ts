// The API core: the client that talks to Nadeo's Core service (real or emulated) as a careful, polite client.
export { createNadeoClient, REAL_BASE_URL, REAL_OAUTH_BASE_URL, buildUserAgent, isRealServiceHost } from './client.ts';
export { checkRateOptions, REAL_SERVICE_MAX_RPS } from './client.ts';
export { RATE_LIMITS } from './limiter.ts';
export { RETRY_LIMITS } from './retry.ts';
export type { RejectedMap, RejectedRecord } from './checks.ts';
export type { RouteChoices, RouteFamily, RouteVersion } from './routes.ts';
export type { NadeoClient, NadeoClientOptions, NadeoClientStats, CallOptions } from './client.ts';
export type { Credentials } from './auth.ts';
export type { DownloadResult } from './download.ts';
export type { RequestEvent } from './http.ts';
export type { RetryOptions } from './retry.ts';
export { LimiterPool } from './limiter.ts';
export { DEFAULT_MAX_URI_LENGTH } from './batching.ts';
export { DEFAULT_MAX_DOWNLOAD_BYTES } from './download.ts';
export { gameModeFor, isUuid, isMapUid } from './rules.ts';
export * from './errors.ts';
