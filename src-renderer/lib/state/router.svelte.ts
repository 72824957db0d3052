import { parseRoute, routeHref } from '../routes.ts';
import type { Route } from '../routes.ts';

/** The current place in the app, from the URL's hash; going somewhere is changing the hash. */
export class Router {
  #route = $state.raw<Route>(parseRoute(window.location.hash));

  constructor() {
    window.addEventListener('hashchange', () => {
      this.#route = parseRoute(window.location.hash);
    });
  }

  get route(): Route {
    return this.#route;
  }

  go(route: Route, options: { replace?: boolean } = {}): void {
    const href = routeHref(route);
    if (options.replace) {
      history.replaceState(null, '', href);
      this.#route = parseRoute(href);
    } else {
      window.location.hash = href.slice(1);
    }
  }
}
