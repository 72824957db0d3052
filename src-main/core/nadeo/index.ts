// The API core: the client that talks to Nadeo's Core service (real or emulated) as a careful, polite client.
export { createNadeoClient, REAL_BASE_URL, REAL_OAUTH_BASE_URL, buildUserAgent, isRealServiceHost } from './client.ts';
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
// Beyond Core: Live services, Trackmania Exchange, players by name, and lists from a source.
export { createLiveClient, REAL_LIVE_BASE_URL } from './live.ts';
export type { LiveClient, LiveClientOptions, Campaign, CampaignPage, ClubCampaign, TrackOfTheDay, TrackOfTheDayMonth, TrackOfTheDayPage, PositionResult, ZonePosition, WorldRecord } from './live.ts';
export { liveScoreOf, isBetterLiveScore, minimumPositionRequests, packPositionQueries, MAX_MAPS_PER_POSITION_REQUEST, PERSONAL_BEST_GROUP, WORLD_ZONE_ID } from './live-positions.ts';
export type { PositionQuery } from './live-positions.ts';
export { ServiceLimiters, DEFAULT_SERVICE_BUDGETS } from './live-service.ts';
export type { ServiceName, ServiceClientOptions } from './live-service.ts';
export { createExchangeClient, REAL_EXCHANGE_BASE_URL } from './exchange.ts';
export type { ExchangeClient, ExchangeClientOptions, ExchangeMap } from './exchange.ts';
export { parseSourceLink, SOURCE_LINK_FORMS } from './exchange-links.ts';
export type { SourceLink } from './exchange-links.ts';
export { createNamesClient, MAX_NAMES_PER_CALL } from './names.ts';
export type { NamesClient, NamesClientOptions, AccountIdsResult } from './names.ts';
export { parseListSource, formatListSource, resolveListSource, SourceError, LIST_SOURCE_FORMS } from './live-sources.ts';
export type { ListSource, ResolvedSource, SourceClients } from './live-sources.ts';
