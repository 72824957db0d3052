// The seed routes and their successors (docs/nadeo-api.md "The real service"). A client speaks both and, once a route
// is gone, moves to the other for the rest of its life; the choice can be saved and given back to the next client.
//
// Gone means a 404 or 410 that is not the endpoint's own documented answer: a removed route may answer with an
// ordinary-looking API error body ("Route not found", a code, a correlation id). The records lookup documents one
// 404 of its own (seed 7.2, not-found C-AL-02-03); the map lookup documents none.
//
// Order: the seed routes first. They are the contract this product is specified and tested against, the
// successors' behaviour is only community-documented (they disagree on /maps/by-id/ and invalid IDs), and the
// cost of starting there is one extra request per route per client once they are removed, none once the choice
// is saved. `preferSuccessors` flips the order for deployments that know the seed routes are gone.
import type { RouteDef, RouteVersion } from '../http/route-choice.ts';

function route(path: string, listParam: string, ownNotFoundCodes: readonly string[] = []): RouteDef {
  return { path, listParam, label: `GET ${path}`, ownNotFoundCodes };
}

/** Seed 7.2: the records lookup's not-found (e.g. a Stunt map asked for without gameMode Stunt). */
export const RECORDS_NOT_FOUND_CODE = 'C-AL-02-03';

export const ROUTES = {
  mapsByUid: [route('/maps/', 'mapUidList'), route('/maps/by-uid/', 'mapUidList')],
  mapsById: [route('/maps/', 'mapIdList'), route('/maps/by-id/', 'mapIdList')],
  records: [
    route('/v2/mapRecords/', 'accountIdList', [RECORDS_NOT_FOUND_CODE]),
    route('/v2/mapRecords/by-account/', 'accountIdList', [RECORDS_NOT_FOUND_CODE]),
  ],
} as const satisfies Record<string, readonly [RouteDef, RouteDef]>;

export type RouteFamily = keyof typeof ROUTES;
export const ROUTE_FAMILIES = Object.keys(ROUTES) as RouteFamily[];

/** The route in use for every family, as a product keeps it between runs. */
export type RouteChoices = Record<RouteFamily, RouteVersion>;
