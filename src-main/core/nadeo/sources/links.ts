// Links players paste that name more than a map UID: Trackmania Exchange maps and map packs (resolved to UIDs through
// the Exchange's API), trackmania.io club campaigns and players. Pure: reads text, never throws, no I/O.
import { isUuid } from '../../../shared/ids.ts';

export type SourceLink =
  | { kind: 'tmx-map'; exchangeId: number; input: string }
  | { kind: 'tmx-pack'; packId: number; input: string }
  | { kind: 'club-campaign'; clubId: number; campaignId: number; input: string }
  | { kind: 'player'; accountId: string; input: string }
  | { kind: 'invalid'; input: string; reason: string };

const EXCHANGE_HOSTS = new Set(['trackmania.exchange', 'www.trackmania.exchange']);
const TMIO_HOSTS = new Set(['trackmania.io', 'www.trackmania.io']);

const EXCHANGE_FORMS = '/mapshow/<id>, /maps/<id>/<name>, /s/tr/<id> for a map, /mappack/view/<id> for a map pack';
const TMIO_FORMS = '#/campaigns/<clubId>/<campaignId> for a club campaign, #/player/<accountId> for a player';

/** A positive whole number as the sites write IDs: digits only, no sign, no leading zero. */
function parseId(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= 2 ** 31 - 1 ? n : undefined;
}

/** Path segments, percent-decoded; a malformed escape is named so the player sees what was wrong. */
function segments(path: string): { parts: string[] } | { bad: string } {
  const parts: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      parts.push(decodeURIComponent(raw));
    } catch {
      const escape = /%(?![0-9A-Fa-f]{2}).{0,2}/.exec(raw)?.[0];
      const what = escape !== undefined ? `a malformed %-escape ("${escape}")` : '%-escapes that do not decode to text';
      return { bad: `"${raw.slice(0, 60)}" holds ${what}; copy the link again from the address bar` };
    }
  }
  return { parts };
}

function fromExchange(url: URL, input: string): SourceLink {
  const split = segments(url.pathname);
  if ('bad' in split) return { kind: 'invalid', input, reason: split.bad };
  const [first, second] = split.parts.map((p) => p.toLowerCase());
  const raw = split.parts;
  let id: string | undefined;
  let kind: 'tmx-map' | 'tmx-pack' | undefined;
  if (first === 'mapshow') [kind, id] = ['tmx-map', raw[1]];
  else if (first === 'maps' && second !== undefined) [kind, id] = ['tmx-map', raw[1]];
  else if (first === 's' && second === 'tr') [kind, id] = ['tmx-map', raw[2]];
  else if (first === 'mappack' && second === 'view') [kind, id] = ['tmx-pack', raw[2]];
  if (kind === undefined) {
    return { kind: 'invalid', input, reason: `not a Trackmania Exchange map or map pack link; those look like ${EXCHANGE_FORMS}` };
  }
  const n = parseId(id);
  const what = kind === 'tmx-map' ? 'map' : 'map pack';
  if (n === undefined) {
    const reason = id === undefined ? `the Trackmania Exchange ${what} number is missing` : `"${id.slice(0, 40)}" is not a Trackmania Exchange ${what} number`;
    return { kind: 'invalid', input, reason };
  }
  return kind === 'tmx-map' ? { kind, exchangeId: n, input } : { kind, packId: n, input };
}

function fromTrackmaniaIo(url: URL, input: string): SourceLink | null {
  // The site routes in the fragment (`/#/player/<id>`); accept the same path without it too.
  const route = url.hash.replace(/^#/, '') || url.pathname;
  const split = segments(route.split('?')[0] ?? '');
  if ('bad' in split) return { kind: 'invalid', input, reason: split.bad };
  const [page, a, b] = split.parts;
  switch (page?.toLowerCase()) {
    case 'player': {
      if (a !== undefined && isUuid(a)) return { kind: 'player', accountId: a.toLowerCase(), input };
      return { kind: 'invalid', input, reason: `"${(a ?? '').slice(0, 40)}" is not an account ID (a UUID); a player link looks like trackmania.io/#/player/<accountId>` };
    }
    case 'campaigns': {
      const clubId = parseId(a);
      const campaignId = parseId(b);
      if (clubId !== undefined && campaignId !== undefined) return { kind: 'club-campaign', clubId, campaignId, input };
      return { kind: 'invalid', input, reason: `not a club campaign link; it looks like trackmania.io/${TMIO_FORMS.split(' for')[0]}` };
    }
    default:
      // Map links (`#/leaderboard/<uid>`) and the rest are not this parser's: map references read them.
      return null;
  }
}

/**
 * Reads one pasted link. Null when the text is not a link of these forms (a map UID, a map ID or a trackmania.io map
 * link: read those with parseMapRef); `invalid` with the reason when it is a link of these sites that is broken.
 */
export function parseSourceLink(text: string): SourceLink | null {
  const input = text.trim();
  const withScheme = /^https?:\/\//i.test(input) ? input : /^(www\.)?trackmania\.(io|exchange)([/#?]|$)/i.test(input) ? `https://${input}` : undefined;
  if (withScheme === undefined) return null;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { kind: 'invalid', input, reason: 'not a valid link' };
  }
  const host = url.hostname.toLowerCase();
  if (EXCHANGE_HOSTS.has(host)) return fromExchange(url, input);
  if (TMIO_HOSTS.has(host)) return fromTrackmaniaIo(url, input);
  return null;
}

/** The forms parseSourceLink reads, for help texts. */
export const SOURCE_LINK_FORMS = `Trackmania Exchange: ${EXCHANGE_FORMS}; trackmania.io: ${TMIO_FORMS}`;
