// How a player names someone to watch: an account ID, a trackmania.io player link (/#/player/<accountId>), or a
// display name, which the Trackmania OAuth API's name-to-ID route turns into an account ID (names.ts).
import { ConfigError, parseSourceLink, type NamesClient } from './nadeo/index.ts';
import { isUuid } from '../shared/ids.ts';

/** Some entries are display names and no OAuth app is set up to look them up. */
export class NamesUnavailableError extends ConfigError {
  readonly names: string[];
  constructor(message: string, names: string[]) {
    super(message);
    this.name = 'NamesUnavailableError';
    this.names = names;
  }
}

export interface ResolvedPlayer {
  accountId: string;
  /** As pasted. */
  input: string;
  /** The display name it was found by; null for an account ID or a link. */
  foundByName: string | null;
}

export interface ResolvedPlayerRefs {
  /** One entry per account, in the order given. */
  players: ResolvedPlayer[];
  /** Display names no account has. */
  unknown: string[];
  /** Display names the service gave several accounts for (differing in letter case), with each account ID. */
  ambiguous: { name: string; accountIds: string[] }[];
  /** Text that names no player, with the reason. */
  invalid: { input: string; reason: string }[];
}

/**
 * Reads each entry as an account ID, a trackmania.io player link or else a display name, and looks the names up in
 * one batched call. Names need the OAuth app (the one display names use): without it, a ConfigError names them.
 * `names` is asked for only when some entry is a name: IDs and links need no network, no account and no contact.
 */
export async function resolvePlayerRefs(
  inputs: readonly string[],
  names: () => NamesClient | undefined,
  o: { signal?: AbortSignal | undefined } = {},
): Promise<ResolvedPlayerRefs> {
  const out: ResolvedPlayerRefs = { players: [], unknown: [], ambiguous: [], invalid: [] };
  // Each entry's place, so the accounts come back in the order given whatever form named them.
  const slots: ({ accountId: string; input: string } | { name: string; input: string })[] = [];
  for (const raw of inputs) {
    const input = String(raw).trim();
    if (input === '') continue;
    if (isUuid(input)) {
      slots.push({ accountId: input.toLowerCase(), input });
      continue;
    }
    const link = parseSourceLink(input);
    if (link?.kind === 'player') slots.push({ accountId: link.accountId, input });
    else if (link?.kind === 'invalid') out.invalid.push({ input, reason: link.reason });
    else if (link) out.invalid.push({ input, reason: 'not a player link; a player link looks like trackmania.io/#/player/<accountId>' });
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) || /^(www\.)?trackmania\.(io|exchange)\//i.test(input)) {
      out.invalid.push({ input, reason: 'links from this site do not name a player; paste an account ID, a trackmania.io player link or a display name' });
    } else slots.push({ name: input, input });
  }
  const asked = slots.flatMap((s) => ('name' in s ? [s.name] : []));
  let found = new Map<string, string>();
  if (asked.length > 0) {
    const client = names();
    if (!client) {
      const list = asked.slice(0, 3).map((n) => `"${n}"`).join(', ') + (asked.length > 3 ? ` and ${asked.length - 3} more` : '');
      throw new NamesUnavailableError(
        `${list} ${asked.length === 1 ? 'is not an account ID' : 'are not account IDs'}: finding players by display name needs a Trackmania OAuth app (the same one as for display names). Paste account IDs or trackmania.io player links instead.`,
        asked,
      );
    }
    const answer = await client.getAccountIds(asked, o);
    found = answer.found;
    out.unknown.push(...answer.unknown);
    out.ambiguous.push(...answer.ambiguous);
    out.invalid.push(...answer.invalid.map((i) => ({ input: i.name, reason: `not a display name (${i.reason})` })));
  }
  const seen = new Set<string>();
  for (const slot of slots) {
    const accountId = 'accountId' in slot ? slot.accountId : found.get(slot.name.trim());
    if (accountId === undefined || seen.has(accountId)) continue;
    seen.add(accountId);
    out.players.push({ accountId, input: slot.input, foundByName: 'name' in slot ? slot.name : null });
  }
  return out;
}
