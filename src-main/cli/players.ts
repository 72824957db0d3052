// A player as the command line takes one: an account ID, or a name the player knows them by — the name shown for
// them (shared playerLabel: their nickname, else display name, else the start of the account ID), their nickname or
// display name, any case, formatting codes ignored — or "me" for the account marked as theirs.
import { isUuid } from '../shared/ids.ts';
import type { Player } from '../core/store/index.ts';
import type { Trackwatch } from '../core/trackwatch.ts';
import { stripFormatting } from '../shared/format.ts';
import { playerLabel } from '../shared/leaderboard.ts';
import { UserError } from './errors.ts';
import { plainName } from './output.ts';

/** How many watched players a refusal names before "and N more". */
const HINT_NAMES = 10;

function folded(text: string): string {
  return stripFormatting(text).normalize('NFC').trim().toLocaleLowerCase('en-US');
}

/** Every name a player answers to: the one shown, the nickname, the display name. */
function namesOf(player: Player): string[] {
  return [playerLabel(player), player.nickname, player.displayName].filter((n): n is string => Boolean(n));
}

/** How a player is shown when a name is ambiguous or unknown: their names, and the account ID. */
function described(player: Player): string {
  return `${[...new Set(namesOf(player).map(plainName))].join(' / ')} (${player.accountId})`;
}

/** The players a refusal can suggest: each by the name shown for them, the first few and how many more. */
function watchedHint(players: readonly Player[], list: string | undefined): string {
  const inList = list === undefined ? '' : ` --list "${list}"`;
  if (players.length === 0) {
    return `${list === undefined ? ' No player is watched yet' : ` "${list}" has no players yet`}: \`trackwatch players add <accountId> --name NICK${inList}\`.`;
  }
  const names = players.slice(0, HINT_NAMES).map((p) => plainName(playerLabel(p)));
  const more = players.length - names.length;
  return ` Watched players: ${names.join(', ')}${more > 0 ? ` and ${more} more (\`trackwatch players list${inList}\`)` : ''}.`;
}

/**
 * The account ID meant by `text`, among the players of `list` (by default every watched player, and any account
 * ID the store knows, so the records of a player no longer watched stay readable): an account ID, else the one
 * player whose shown name, nickname or display name it is (case-insensitive), else, for "me", the account marked
 * as yours. Says "no player named …" (or "with account ID …") when none matches, and which players when several do.
 * `flag` names what took the player in those messages ("--me", "players remove").
 */
export function resolvePlayer(tw: Trackwatch, text: string, flag: string, list?: string): string {
  const given = text.trim();
  if (given === '') throw new UserError(`${flag} needs a player: an account ID, a nickname or a display name.`);
  const candidates = tw.store.players.list(list);
  const takes = `(${flag} takes an account ID, a nickname or a display name${list === undefined ? '' : ` of a player of "${list}"`})`;
  if (isUuid(given)) {
    const accountId = given.toLowerCase();
    const known = list === undefined ? tw.store.players.get(accountId) !== undefined : candidates.some((p) => p.accountId === accountId);
    if (known) return accountId;
    throw new UserError(`no player with account ID ${accountId} ${takes}.${watchedHint(candidates, list)}`);
  }
  const wanted = folded(given);
  const matches = candidates.filter((p) => namesOf(p).some((name) => folded(name) === wanted));
  if (matches.length === 1) return matches[0]!.accountId;
  if (matches.length > 1) {
    throw new UserError(`"${given}" names ${matches.length} players: ${matches.map(described).join(', ')}. Give ${flag} one of their account IDs.`);
  }
  const me = tw.store.settings.me();
  if (wanted === 'me' && me && (list === undefined || candidates.some((p) => p.accountId === me))) return me;
  throw new UserError(`no player named "${given}" ${takes}.${watchedHint(candidates, list)}`);
}
