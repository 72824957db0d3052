// A player as the command line takes one: an account ID, or a name the player knows them by — their nickname or
// Trackmania display name, any case, formatting codes ignored — or "me" for the account marked as theirs.
import { isUuid } from '../core/nadeo/index.ts';
import type { Player } from '../core/store/index.ts';
import type { Trackwatch } from '../core/trackwatch.ts';
import { stripFormatting } from '../shared/format.ts';
import { UserError } from './errors.ts';

function folded(text: string): string {
  return stripFormatting(text).normalize('NFC').trim().toLocaleLowerCase('en-US');
}

/** How a player is shown when a name is ambiguous or unknown: their names, and the start of the account ID. */
function described(player: Player): string {
  const names = [player.nickname, player.displayName && stripFormatting(player.displayName)].filter((n): n is string => Boolean(n));
  return `${names.length ? [...new Set(names)].join(' / ') : 'no name'} (${player.accountId})`;
}

/**
 * The account ID meant by `text`: an account ID as given, else the one player whose nickname or display name it is
 * (case-insensitive), else, for "me", the account marked as yours. Says "no player named …" when none matches, and
 * which players when several do.
 */
export function resolvePlayer(tw: Trackwatch, text: string, flag: string): string {
  const given = text.trim();
  if (isUuid(given)) return given.toLowerCase();
  if (given === '') throw new UserError(`${flag} needs a player: an account ID, a nickname or a display name.`);
  const wanted = folded(given);
  const players = tw.store.players.list();
  const matches = players.filter((p) => [p.nickname, p.displayName].some((name) => name && folded(name) === wanted));
  if (matches.length === 1) return matches[0]!.accountId;
  if (matches.length > 1) {
    throw new UserError(`"${given}" names ${matches.length} players: ${matches.map(described).join(', ')}. Give ${flag} one of their account IDs.`);
  }
  if (wanted === 'me' && tw.me) return tw.me;
  const names = players.flatMap((p) => [p.nickname, p.displayName && stripFormatting(p.displayName)]).filter((n): n is string => Boolean(n));
  const hint = names.length > 0 ? ` Watched players: ${[...new Set(names)].slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}.` : ' No player is watched yet: `trackwatch players add <accountId> --name NICK`.';
  throw new UserError(`no player named "${given}" (${flag} takes an account ID, a nickname or a display name).${hint}`);
}
