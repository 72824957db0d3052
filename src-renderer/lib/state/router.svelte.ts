import { listOf, parseRoute, routeHref } from '../routes.ts';
import type { Route } from '../routes.ts';

/** The current place in the app, from the URL's hash; going somewhere is changing the hash. */
export class Router {
  #route = $state.raw<Route>(parseRoute(window.location.hash));
  /** The list of the latest place that had one: where "g m" and the like lead from Settings or Replays. */
  #lastList = $state<string | null>(listOf(parseRoute(window.location.hash)));

  constructor() {
    window.addEventListener('hashchange', () => this.#arrive(parseRoute(window.location.hash)));
  }

  get route(): Route {
    return this.#route;
  }

  get lastList(): string | null {
    return this.#lastList;
  }

  go(route: Route, options: { replace?: boolean } = {}): void {
    const href = routeHref(route);
    if (options.replace) {
      history.replaceState(null, '', href);
      this.#arrive(parseRoute(href));
    } else {
      window.location.hash = href.slice(1);
    }
  }

  #arrive(route: Route): void {
    this.#route = route;
    this.#lastList = listOf(route) ?? this.#lastList;
  }
}
