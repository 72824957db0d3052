// A map as the command line takes one: a UID, a map ID, a link, or its name as the game shows it (any case,
// formatting codes ignored). A name that several stored maps share lists them, for the player to give a UID.
import { parseMapRef } from '../core/refs.ts';
import type { StoredMap } from '../core/store/index.ts';
import type { Trackwatch } from '../core/trackwatch.ts';
import { stripFormatting } from '../shared/format.ts';
import { UserError } from './errors.ts';
import { nearNames } from './lists.ts';
import { plainName } from './output.ts';

/** How many maps a refusal names before "and N more". */
const HINT_MAPS = 8;

function folded(text: string): string {
  return stripFormatting(text).normalize('NFC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en-US');
}

function described(map: StoredMap): string {
  return `${plainName(map.name)} (${map.mapUid})`;
}

/**
 * The stored map's ID meant by `text`: a UID, map ID or link of a stored map, else the one stored map of that name.
 * Says which maps share the name, or which names are near, when it cannot tell. `flag` names what took the map.
 */
export function resolveMap(tw: Trackwatch, text: string, flag: string): string {
  const given = text.trim();
  if (given === '') throw new UserError(`${flag} needs a map: a map name, UID, map ID or link.`);
  const parsed = parseMapRef(given);
  if (parsed.kind !== 'invalid') {
    const byRef = tw.store.maps.get(parsed.kind === 'uid' ? parsed.uid : parsed.id);
    if (byRef) return byRef.mapId;
  }
  const maps = tw.store.maps.list();
  const wanted = folded(given);
  const named = maps.filter((m) => folded(m.name) === wanted);
  if (named.length === 1) return named[0]!.mapId;
  if (named.length > 1) {
    throw new UserError(`"${given}" names ${named.length} stored maps: ${named.slice(0, HINT_MAPS).map(described).join(', ')}${named.length > HINT_MAPS ? ` and ${named.length - HINT_MAPS} more` : ''}. Give ${flag} one of their UIDs.`);
  }
  // Part of a name ("lagoon") is fine when only one map has it.
  const partly = wanted.length >= 3 ? maps.filter((m) => folded(m.name).includes(wanted)) : [];
  if (partly.length === 1) return partly[0]!.mapId;
  const near = partly.length > 1 ? partly : nearNames(wanted, maps.map((m) => folded(m.name))).flatMap((n) => maps.filter((m) => folded(m.name) === n));
  if (near.length > 0) {
    throw new UserError(`no stored map is named "${given}"; did you mean ${near.slice(0, HINT_MAPS).map(described).join(', ')}${near.length > HINT_MAPS ? ` (and ${near.length - HINT_MAPS} more)` : ''}? Give ${flag} its name or UID.`);
  }
  if (parsed.kind !== 'invalid') throw new UserError(`no stored map ${given}; add it with \`trackwatch maps add ${given}\` and sync.`);
  throw new UserError(`no stored map is named "${given}" (${flag} takes a map name, UID, map ID or link; \`trackwatch maps list\` shows the stored maps).`);
}
