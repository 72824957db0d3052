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
import { ErrorCode, HttpError } from './errors.ts';

export interface RouteDef {
  /** Path after the base path, e.g. `/maps/by-uid/`. */
  path: string;
  /** The list parameter, e.g. `mapUidList`. */
  listParam: string;
  /** Label for stats and errors. */
  label: string;
  /** API error codes this endpoint itself answers with a 404/410; any other 404/410 means the route is gone. */
  ownNotFoundCodes: readonly string[];
}

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

/** Which route of a family is in use: the seed's (deprecated) one or its successor. */
export type RouteVersion = 'seed' | 'successor';

/** The route in use for every family, as a product keeps it between runs. */
export type RouteChoices = Record<RouteFamily, RouteVersion>;

/** Which alternative of one route family is in use; remembered for the client's lifetime. */
export class RouteChoice {
  readonly #family: readonly [RouteDef, ...RouteDef[]];
  readonly #alternatives: readonly RouteDef[];
  readonly #onChange: (() => void) | undefined;
  #index = 0;
  #lastGone: HttpError | undefined;

  /** `start`: the route tried first; the other one is the fallback (a family of one route has none). */
  constructor(family: readonly [RouteDef, ...RouteDef[]], start: RouteVersion = 'seed', onChange?: () => void) {
    this.#family = family;
    this.#alternatives = start === 'successor' && family[1] ? [family[1], family[0]] : family;
    this.#onChange = onChange;
  }

  current(): RouteDef {
    const r = this.#alternatives[this.#index];
    if (!r) {
      throw new HttpError(
        ErrorCode.ROUTE_GONE,
        `Every known route for this lookup is gone (${this.#alternatives.map((a) => a.path).join(', ')}). The service changed; update Trackwatch.`,
        { status: this.#lastGone?.status ?? 404, method: 'GET', route: this.#alternatives.map((a) => a.label).join(' | ') },
        { cause: this.#lastGone },
      );
    }
    return r;
  }

  /** The route in use (or the last one tried, when every route is gone). */
  version(): RouteVersion {
    const r = this.#alternatives[Math.min(this.#index, this.#alternatives.length - 1)];
    return r === this.#family[1] ? 'successor' : 'seed';
  }

  /** `def` answered as gone: move on, unless another caller already did. */
  markGone(def: RouteDef, error: HttpError): void {
    this.#lastGone = error;
    if (this.#alternatives[this.#index] !== def) return;
    this.#index++;
    if (this.#index < this.#alternatives.length) this.#onChange?.();
  }
}
