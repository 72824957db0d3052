// The API core's one door: the clients of the web services Trackwatch talks to, all built one way (http/connection.ts).
// Nadeo's: Core (core/), Live (live/), the Trackmania OAuth API (oauth/); and Trackmania Exchange, which is not
// Nadeo's (core/exchange, beside this folder). http/ holds the machinery they share: pipeline, limiter, retry,
// batching, errors. sources/ reads list sources and links across them.
export { openClients } from './clients.ts';
export type { Clients, ClientsOptions } from './clients.ts';
export { REAL_BASE_URL, REAL_LIVE_BASE_URL, REAL_OAUTH_BASE_URL, isRealServiceHost, parseNadeoBase } from './hosts.ts';
// The machinery.
export { DEFAULT_SERVICE_BUDGETS, ServiceLimiters } from './http/connection.ts';
export type { Connection, ConnectionOptions, ServiceName } from './http/connection.ts';
export { LimiterPool } from './http/limiter.ts';
export { RETRY_LIMITS } from './http/retry.ts';
export type { RetryOptions } from './http/retry.ts';
export type { ArmDeadline, RequestEvent } from './http/pipeline.ts';
export { DEFAULT_MAX_URI_LENGTH } from './http/batching.ts';
export { DEFAULT_MAX_DOWNLOAD_BYTES } from './http/download.ts';
export type { DownloadResult } from './http/download.ts';
export type { RouteVersion } from './http/route-choice.ts';
export * from './http/errors.ts';
// Core.
export { createNadeoClient } from './core/client.ts';
export type { NadeoClient, NadeoClientOptions, NadeoClientStats, CallOptions } from './core/client.ts';
export type { Credentials } from './core/auth.ts';
export type { RejectedMap, RejectedRecord } from './core/checks.ts';
export type { RouteChoices, RouteFamily } from './core/routes.ts';
export { gameModeFor } from './core/rules.ts';
// Live.
export { createLiveClient } from './live/client.ts';
export type { LiveClient, LiveClientOptions, Campaign, CampaignPage, ClubCampaign, TrackOfTheDay, TrackOfTheDayMonth, TrackOfTheDayPage, PositionResult, ZonePosition, WorldRecord } from './live/client.ts';
export { minimumPositionRequests, packPositionQueries, MAX_MAPS_PER_POSITION_REQUEST, PERSONAL_BEST_GROUP, WORLD_ZONE_ID } from './live/position-packing.ts';
export type { PositionQuery } from './live/position-packing.ts';
// The Trackmania OAuth API: players by name.
export { createNamesClient, MAX_NAMES_PER_CALL } from './oauth/client.ts';
export type { NamesClient, NamesClientOptions, AccountIdsResult } from './oauth/client.ts';
// Trackmania Exchange (not Nadeo's).
export { createExchangeClient, REAL_EXCHANGE_BASE_URL } from '../exchange/client.ts';
export type { ExchangeClient, ExchangeClientOptions, ExchangeMap } from '../exchange/client.ts';
// Lists from a source, and the links players paste.
export { parseSourceLink, SOURCE_LINK_FORMS } from './sources/links.ts';
export type { SourceLink } from './sources/links.ts';
export { parseListSource, formatListSource, resolveListSource, SourceError, LIST_SOURCE_FORMS } from './sources/sources.ts';
export type { ListSource, ResolvedSource, SourceClients } from './sources/sources.ts';
