// The app's places, kept in the URL's hash: in-page navigation never leaves the page, so it needs no permission.

export type Route =
  | { name: 'home' }
  | { name: 'welcome' }
  | { name: 'list'; list: string; tab: 'maps' | 'players' }
  | { name: 'compare'; list: string }
  | { name: 'splits'; list: string }
  | { name: 'map'; list: string; mapUid: string; tab?: 'splits' }
  | { name: 'player'; list: string; accountId: string }
  | { name: 'replays' }
  | { name: 'settings' };

const enc = encodeURIComponent;

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'home':
      return '#/';
    case 'welcome':
      return '#/welcome';
    case 'list':
      return route.tab === 'maps' ? `#/lists/${enc(route.list)}` : `#/lists/${enc(route.list)}/players`;
    case 'compare':
      return `#/lists/${enc(route.list)}/compare`;
    case 'splits':
      return `#/lists/${enc(route.list)}/splits`;
    case 'map':
      return `#/lists/${enc(route.list)}/maps/${enc(route.mapUid)}${route.tab === 'splits' ? '/splits' : ''}`;
    case 'player':
      return `#/lists/${enc(route.list)}/players/${enc(route.accountId)}`;
    case 'replays':
      return '#/replays';
    case 'settings':
      return '#/settings';
  }
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decode);
  if (parts.some((p) => p === null)) return { name: 'home' };
  const [first, list, kind, id, sub] = parts as string[];
  if (first === 'welcome' && parts.length === 1) return { name: 'welcome' };
  if (first === 'replays' && parts.length === 1) return { name: 'replays' };
  if (first === 'settings' && parts.length === 1) return { name: 'settings' };
  if (first === 'lists' && list) {
    if (parts.length === 2) return { name: 'list', list, tab: 'maps' };
    if (parts.length === 3 && kind === 'players') return { name: 'list', list, tab: 'players' };
    if (parts.length === 3 && kind === 'compare') return { name: 'compare', list };
    if (parts.length === 3 && kind === 'splits') return { name: 'splits', list };
    if (parts.length === 4 && kind === 'maps' && id) return { name: 'map', list, mapUid: id };
    if (parts.length === 5 && kind === 'maps' && id && sub === 'splits') return { name: 'map', list, mapUid: id, tab: 'splits' };
    if (parts.length === 4 && kind === 'players' && id) return { name: 'player', list, accountId: id };
  }
  return { name: 'home' };
}

/** The list a route belongs to, if any. */
export function listOf(route: Route): string | null {
  return 'list' in route ? route.list : null;
}
