// What a player pastes to name a map: a map UID, a map ID, or a link from trackmania.io or Trackmania Exchange.
import { isMapUid, isUuid } from '../shared/ids.ts';
import { splitMapRefs } from '../shared/map-refs.ts';

export type MapRef =
  | { kind: 'uid'; uid: string; input: string }
  | { kind: 'id'; id: string; input: string }
  | { kind: 'invalid'; input: string; reason: string };

const LINK_HOSTS = ['trackmania.io', 'trackmania.exchange'];

function fromToken(token: string, input: string): MapRef | null {
  if (isUuid(token)) return { kind: 'id', id: token.toLowerCase(), input };
  if (isMapUid(token)) return { kind: 'uid', uid: token, input };
  return null;
}

/** A piece of a link, decoded; undefined when its % escapes are malformed (`%zz`, a lone `%`). */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function fromLink(input: string): MapRef {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { kind: 'invalid', input, reason: 'not a valid link' };
  }
  const host = url.hostname.replace(/^www\./, '');
  if (!LINK_HOSTS.includes(host)) {
    return { kind: 'invalid', input, reason: `links from ${url.hostname} are not understood; paste a trackmania.io or Trackmania Exchange link, a map UID or a map ID` };
  }
  // trackmania.io puts the UID in the path or the hash (`/leaderboard/<uid>`, `#/leaderboard/<uid>`); TMX in the path or query.
  const parts = [...url.pathname.split('/'), ...url.hash.replace(/^#/, '').split(/[/?&=]/), ...url.searchParams.values()];
  let malformed = false;
  for (const part of parts) {
    if (!part) continue;
    const text = decoded(part);
    if (text === undefined) malformed = true;
    const ref = text === undefined ? null : fromToken(text, input);
    if (ref) return ref;
  }
  const reason =
    malformed
      ? 'this link holds a malformed "%" escape and no map UID elsewhere; copy the link again'
      : host === 'trackmania.exchange'
        ? 'this Trackmania Exchange link holds only the exchange\'s own map number, not a map UID; copy the map UID from the map\'s page instead'
        : 'no map UID found in this link';
  return { kind: 'invalid', input, reason };
}

/**
 * Pasted text as it may be echoed back (to a terminal, in the window): control characters, escape sequences
 * included, become U+FFFD, so an echo can never drive the terminal.
 */
export function inertText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/**
 * Reads one pasted reference. Never throws: an unusable one comes back as `invalid` with the reason, alone (the
 * rest of a paste is read as usual). `input` is the text as given, made inert.
 */
export function parseMapRef(raw: string): MapRef {
  const input = inertText(String(raw).trim());
  if (input === '') return { kind: 'invalid', input, reason: 'empty' };
  if (/^https?:\/\//i.test(input) || /^(www\.)?trackmania\.(io|exchange)\//i.test(input)) {
    return fromLink(/^https?:\/\//i.test(input) ? input : `https://${input}`);
  }
  return fromToken(input, input) ?? { kind: 'invalid', input, reason: 'not a map UID (18-32 letters and digits), a map ID (a UUID) or a supported link' };
}

/**
 * Splits pasted text, or each entry of a list (a command line's arguments, the window's lines), into map refs by the
 * shared rule (shared/map-refs.ts: an entry that is not all refs is one ref, refused whole) and reads each one.
 */
export function parseMapRefs(text: string | string[]): MapRef[] {
  return (Array.isArray(text) ? text : [text]).flatMap(splitMapRefs).map(parseMapRef);
}
