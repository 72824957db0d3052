// How pasted text splits into map references, the same in the window and on the command line (core/refs.ts reads
// each one for real): one per line, and a line of several UIDs, map IDs or links separated by spaces, commas or
// semicolons into each of them. A line whose pieces are not all map references ("this is not a map", a UID and a
// comment) is one reference, the whole line, refused once as the player wrote it.
import { isMapUid, isUuid } from './ids.ts';

const MAP_LINK = /^(?:https?:\/\/|(?:www\.)?trackmania\.(?:io|exchange)\/)\S+$/i;

/** Whether a pasted piece looks like one map reference: a UID, a map ID or a link (for splitting only). */
export function looksLikeMapRef(piece: string): boolean {
  return isMapUid(piece) || isUuid(piece) || MAP_LINK.test(piece);
}

/** The map references in pasted text, once each, in the order given. */
export function splitMapRefs(text: string): string[] {
  const refs = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const pieces = line.split(/[\s,;]+/).filter((piece) => piece !== '');
    if (pieces.length > 1 && !pieces.every(looksLikeMapRef)) refs.add(line);
    else for (const piece of pieces) refs.add(piece);
  }
  return [...refs];
}
