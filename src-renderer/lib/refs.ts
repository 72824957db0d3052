// Pasted references as the window reads them before sending: map references split by the shared rule, players one
// per line.
import { isUuid } from '../../src-main/shared/ids.ts';

export { splitMapRefs as splitRefs } from '../../src-main/shared/map-refs.ts';

/**
 * The references worth sending: those the last look-up did not just turn down (not found, not a map). Turned-down
 * ones stay in the box to be fixed; offering to "Add 5 maps" of them would only fail again (issue 17 §2.10).
 */
export function refsToSend(refs: readonly string[], turnedDown: ReadonlySet<string>): string[] {
  return refs.filter((ref) => !turnedDown.has(ref));
}

/** The longest nickname the store keeps (core/store/players.ts NICKNAME_MAX). */
export const NICKNAME_MAX = 60;

/** trackmania.io's player pages: `https://trackmania.io/#/player/<accountId>` (with or without a tab after it). */
const PLAYER_LINK = /^(?:https?:\/\/)?(?:www\.)?trackmania\.io\/(?:#\/)?player\/([0-9a-f-]{36})(?:[/?#].*)?$/i;

/** The account ID a pasted piece names: an ID itself, or a trackmania.io player link; null for anything else. */
export function accountIdOf(piece: string): string | null {
  const text = piece.trim();
  if (isUuid(text)) return text.toLowerCase();
  const link = PLAYER_LINK.exec(text);
  return link?.[1] && isUuid(link[1]) ? link[1].toLowerCase() : null;
}

/** One pasted line, read: a player to add, or why it is not one. */
export interface PlayerLine {
  /** 1-based, counting every line of the text (blank ones too), as an editor shows them. */
  line: number;
  text: string;
  accountId: string | null;
  /** A display name to look up on the service (the line's first word when it is not an ID or a link); null otherwise. */
  name?: string | null;
  nickname: string | null;
  /** Why this line adds nobody; null when it names a player. */
  problem: string | null;
}

/** What can be a display name, as the single field takes one: no spaces, no link (no "/" or ":"), at most 64 characters. */
export function isDisplayNameLike(text: string): boolean {
  return text !== '' && !/[\s/:]/.test(text) && [...text].length <= 64;
}

/**
 * Reads pasted players, one per line: an account ID or a trackmania.io player link, then optionally a nickname
 * (the rest of the line, after spaces, a comma, a semicolon or a tab). A second ID on the line is never taken for a
 * nickname: the line is refused, so the player can split it. Blank lines are skipped; a player met again is noted.
 */
export function parsePlayerLines(text: string): PlayerLine[] {
  const lines: PlayerLine[] = [];
  const firstLine = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const at = index + 1;
    const [, head = '', rest = ''] = /^([^\s,;]+)[\s,;]*(.*)$/.exec(line) ?? [];
    const accountId = accountIdOf(head);
    const others = rest.split(/[\s,;]+/).filter((piece) => accountIdOf(piece) !== null).length;
    const nickname = rest.replace(/\s+/g, ' ').replace(/^["']|["']$/g, '').trim() || null;
    const refuse = (problem: string) => lines.push({ line: at, text: line, accountId, nickname: null, problem });
    if (accountId === null) {
      if (others > 0) refuse('the account ID goes first, then the nickname');
      else if (!isDisplayNameLike(head)) refuse('not an account ID, a trackmania.io player link or a display name');
      else if (nickname !== null && [...nickname].length > NICKNAME_MAX) refuse(`the nickname is longer than ${NICKNAME_MAX} characters`);
      // A display name, looked up when the lines are sent (resolveNamedLines); the rest of the line is the nickname.
      else lines.push({ line: at, text: line, accountId: null, name: head, nickname, problem: null });
      return;
    }
    if (others > 0) {
      refuse(`${others + 1} account IDs on one line: put each player on a line of their own`);
      return;
    }
    if (nickname !== null && [...nickname].length > NICKNAME_MAX) {
      refuse(`the nickname is longer than ${NICKNAME_MAX} characters`);
      return;
    }
    const earlier = firstLine.get(accountId);
    if (earlier !== undefined) {
      refuse(`the same player as line ${earlier}`);
      return;
    }
    firstLine.set(accountId, at);
    lines.push({ line: at, text: line, accountId, nickname, problem: null });
  });
  return lines;
}

/** The service's answer to a look-up of display names (contract FoundPlayers). */
export interface FoundNames {
  found: { name: string; accountId: string }[];
  unknown: string[];
  ambiguous: { name: string; accountIds: string[] }[];
  invalid: { name: string; reason: string }[];
}

/**
 * The lines with their display names looked up: each name's account ID, or why it adds nobody (no such player, several
 * accounts, not a name); a name that is a player already on an earlier line is said to be.
 */
export function resolveNamedLines(lines: readonly PlayerLine[], answer: FoundNames): PlayerLine[] {
  const fold = (name: string): string => name.toLocaleLowerCase('en-US');
  const found = new Map(answer.found.map((f) => [fold(f.name), f.accountId.toLowerCase()]));
  const ambiguous = new Map(answer.ambiguous.map((a) => [fold(a.name), a.accountIds.length]));
  const invalid = new Map(answer.invalid.map((i) => [fold(i.name), i.reason]));
  const firstLine = new Map<string, number>();
  for (const l of lines) if (l.accountId !== null && l.problem === null) firstLine.set(l.accountId, Math.min(l.line, firstLine.get(l.accountId) ?? l.line));
  return lines.map((l): PlayerLine => {
    if (!l.name || l.problem !== null) return l;
    const key = fold(l.name);
    const accountId = found.get(key);
    if (accountId === undefined) {
      const twins = ambiguous.get(key);
      const reason = invalid.get(key);
      const problem = twins !== undefined
        ? `“${l.name}” is the display name of ${twins} accounts: paste the account ID of the one you mean`
        : reason !== undefined ? `“${l.name}” is not a display name: ${reason}` : `no player is named “${l.name}” on Trackmania (names are matched whole)`;
      return { ...l, problem };
    }
    const earlier = firstLine.get(accountId);
    if (earlier !== undefined && earlier !== l.line) return { ...l, accountId, problem: `the same player as line ${earlier}` };
    firstLine.set(accountId, l.line);
    return { ...l, accountId };
  });
}

/** The lines whose display names could not be looked up, each refused with why. */
export function unresolvedNamedLines(lines: readonly PlayerLine[], why: string): PlayerLine[] {
  return lines.map((l) => (l.name && l.problem === null && l.accountId === null ? { ...l, problem: why } : l));
}

/** What the service said about the players sent, as one line of words per pasted line. */
export interface PlayerLineOutcome extends PlayerLine {
  outcome: 'added' | 'already' | 'refused';
  /** The nickname the player already had, kept instead of the one on the line. */
  keptNickname: string | null;
  message: string;
}

export function playerLineOutcomes(
  lines: readonly PlayerLine[],
  result: { added: string[]; alreadyListed: string[]; invalid: { accountId: string; reason: string }[]; nicknamesKept: { accountId: string; kept: string; given: string }[] },
  list: string,
): PlayerLineOutcome[] {
  const added = new Set(result.added);
  const already = new Set(result.alreadyListed);
  const invalid = new Map(result.invalid.map((i) => [i.accountId.trim().toLowerCase(), i.reason]));
  const kept = new Map(result.nicknamesKept.map((k) => [k.accountId, k]));
  return lines.map((line): PlayerLineOutcome => {
    const refused = (why: string): PlayerLineOutcome => ({ ...line, outcome: 'refused', keptNickname: null, message: `not added: ${why}` });
    if (line.problem !== null || line.accountId === null) return refused(line.problem ?? 'no account ID');
    const reason = invalid.get(line.accountId);
    if (reason !== undefined) return refused(reason);
    const keptNickname = kept.get(line.accountId);
    const note = keptNickname ? `; keeps the nickname “${keptNickname.kept}” (not “${keptNickname.given}”: change it with the player’s pencil in the list)` : '';
    const keptName = keptNickname?.kept ?? null;
    if (added.has(line.accountId)) {
      const as = !keptNickname && line.nickname ? ` as “${line.nickname}”` : '';
      return { ...line, outcome: 'added', keptNickname: keptName, message: `added${as}${note}` };
    }
    if (already.has(line.accountId)) return { ...line, outcome: 'already', keptNickname: keptName, message: `already in ${list}${note}` };
    return refused('the service gave no answer for it');
  });
}
