// What the Core service's endpoint functions work over: the connection, the base URL, the route each family is on,
// the URI limits learned, and the login. Made once per client (createNadeoClient); the endpoints are plain functions.
import { jsonHandler } from '../http/answers.ts';
import type { BaseUrl } from '../http/base-url.ts';
import type { Connection } from '../http/connection.ts';
import type { UriLimits } from '../http/lookup.ts';
import type { RouteChoice, RouteDef } from '../http/route-choice.ts';
import type { NadeoAuth } from './auth.ts';
import type { RouteFamily } from './routes.ts';

export interface CoreContext {
  conn: Connection;
  api: BaseUrl;
  routes: Record<RouteFamily, RouteChoice>;
  limits: UriLimits;
  /** Undefined without credentials: then no Authorization header is sent. */
  auth: NadeoAuth | undefined;
}

/** A GET of a JSON answer on a Core route, with the token and the route's own not-found codes. */
export function getJson(ctx: CoreContext, route: RouteDef, target: string, signal: AbortSignal): Promise<unknown> {
  const spec = { method: 'GET', route: route.label, target, detectGoneRoute: true, ownNotFoundCodes: route.ownNotFoundCodes } as const;
  return ctx.conn.pipeline.request({
    ...spec,
    origin: ctx.api.origin,
    auth: 'nadeo',
    headers: { accept: 'application/json' },
    signal,
    handle: jsonHandler(spec, ctx.conn.now),
  });
}

/** `<base>/maps/?mapUidList=a,b,c`: the request-target of a list lookup. */
export function listTarget(ctx: CoreContext, route: RouteDef, keys: readonly string[]): string {
  return `${ctx.api.basePath}${route.path}?${route.listParam}=${keys.join(',')}`;
}
