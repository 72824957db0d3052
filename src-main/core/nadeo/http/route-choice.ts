// Which alternative of a route family answers (a route and its successor): a client tries them in order and, once a
// route is gone (a 404 or 410 that is not the endpoint's own answer), moves to the next for the rest of its life.
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

/** Which route of a family is in use: the seed's (deprecated) one or its successor. */
export type RouteVersion = 'seed' | 'successor';

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
