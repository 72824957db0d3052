// The seed routes and their successors (API-FACTS "The real service"). A client speaks both and, once a route
// is gone (404/410 without an API error code), moves to the next for the rest of its life.
//
// Order: the seed routes first. They are the contract this product is specified and tested against, the
// successors' behaviour is only community-documented (they disagree on /maps/by-id/ and invalid IDs), and the
// cost of starting there is one extra request per route per client once they are removed.
// `preferSuccessors` flips the order for deployments that know the seed routes are gone.
import { ErrorCode, HttpError } from './errors.ts';

export interface RouteDef {
  /** Path after the base path, e.g. `/maps/by-uid/`. */
  path: string;
  /** The list parameter, e.g. `mapUidList`. */
  listParam: string;
  /** Label for stats and errors. */
  label: string;
}

function route(path: string, listParam: string): RouteDef {
  return { path, listParam, label: `GET ${path}` };
}

export const ROUTES = {
  mapsByUid: [route('/maps/', 'mapUidList'), route('/maps/by-uid/', 'mapUidList')],
  mapsById: [route('/maps/', 'mapIdList'), route('/maps/by-id/', 'mapIdList')],
  records: [route('/v2/mapRecords/', 'accountIdList'), route('/v2/mapRecords/by-account/', 'accountIdList')],
} as const satisfies Record<string, readonly RouteDef[]>;

export type RouteFamily = keyof typeof ROUTES;

/** Which alternative of one route family is in use; remembered for the client's lifetime. */
export class RouteChoice {
  readonly #alternatives: readonly RouteDef[];
  #index = 0;
  #lastGone: HttpError | undefined;

  constructor(alternatives: readonly RouteDef[], preferSuccessors = false) {
    this.#alternatives = preferSuccessors ? [...alternatives].reverse() : alternatives;
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

  /** `def` answered as gone: move on, unless another caller already did. */
  markGone(def: RouteDef, error: HttpError): void {
    this.#lastGone = error;
    if (this.#alternatives[this.#index] === def) this.#index++;
  }
}
