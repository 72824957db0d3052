// Which watchlist a command means: the one named with --list, else "Default", else the only one there is. A command
// that adds to a list names one that does not exist yet only on purpose: a near name is suggested, and in a script
// (no terminal) a new list is made only with --create, so a typo never quietly starts a second list.
import type { Trackwatch } from '../core/trackwatch.ts';
import { UserError } from './errors.ts';

export const DEFAULT_LIST = 'Default';

function folded(name: string): string {
  return name.normalize('NFC').trim().toLocaleLowerCase('en-US');
}

/** Edits (insert, delete, change, swap of neighbours) from a to b, stopping once above `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previous: number[] = [];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let best = Math.min(before[j]! + 1, row[j - 1]! + 1, before[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, previous[j - 2]! + 1);
      row.push(best);
    }
    if (Math.min(...row) > max) return max + 1;
    previous = before;
    before = row;
  }
  return before[b.length]!;
}

/**
 * The names among `names` that `given` is probably a slip for: the same but for case, or within one edit per four
 * letters (at least one, at most three), nearest first.
 */
export function nearNames(given: string, names: readonly string[]): string[] {
  const wanted = folded(given);
  const max = Math.min(3, Math.max(1, Math.floor(wanted.length / 4)));
  return names
    .map((name) => ({ name, distance: editDistance(wanted, folded(name), max) }))
    .filter((n) => n.distance <= max)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .map((n) => n.name);
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/**
 * The existing list a command works on: the one named, else "Default" when there is one, else the only list there
 * is. An unknown name is refused with the near names, or the lists there are.
 */
export function existingList(tw: Trackwatch, given: string | undefined): string {
  const names = tw.store.watchlists.list().map((l) => l.name);
  if (given !== undefined) {
    const found = tw.store.watchlists.get(given);
    if (found) return found.name;
    const near = nearNames(given, names);
    throw new UserError(`there is no list "${given}"; ${near.length > 0 ? `did you mean ${quoted(near)}?` : names.length > 0 ? `the lists are ${quoted(names)}.` : 'there are no lists yet: `trackwatch maps add <ref>` makes one.'}`);
  }
  if (names.includes(DEFAULT_LIST)) return DEFAULT_LIST;
  if (names.length === 1) return names[0]!;
  if (names.length === 0) throw new UserError('there are no lists yet: add maps with `trackwatch maps add <ref>` first.');
  throw new UserError(`there are several lists (${quoted(names)}): name one with --list.`);
}

/** What a command that adds to a list will add to, and whether it makes that list. */
export interface ListToAddTo {
  name: string;
  /** The list does not exist yet: the command makes it (and says so). */
  create: boolean;
}

/**
 * The list to add to. Named and existing: that one. Named and new: made when asked (--create), or at a terminal when
 * no existing list is a near name; refused otherwise, with the near names. Not named: "Default", else the only list,
 * else a new "Default" when there is no list at all; with several lists and no "Default", the player names one.
 */
export function listToAddTo(
  lists: readonly string[],
  given: string | undefined,
  o: { create?: boolean | undefined; interactive: boolean; command: string },
): ListToAddTo {
  if (given === undefined) {
    if (lists.includes(DEFAULT_LIST)) return { name: DEFAULT_LIST, create: false };
    if (lists.length === 1) return { name: lists[0]!, create: false };
    if (lists.length === 0) return { name: DEFAULT_LIST, create: true };
    throw new UserError(`there are several lists (${quoted(lists)}): name one with --list (or --list "${DEFAULT_LIST}" --create for a new one).`);
  }
  const wanted = given.normalize('NFC').trim();
  const existing = lists.find((name) => name === wanted);
  if (existing !== undefined) return { name: existing, create: false };
  if (o.create) return { name: wanted, create: true };
  const near = nearNames(wanted, lists);
  if (near.length > 0) {
    throw new UserError(`there is no list "${wanted}"; did you mean ${quoted(near)}? To make a new list "${wanted}", add --create.`);
  }
  if (o.interactive) return { name: wanted, create: true };
  throw new UserError(`there is no list "${wanted}"${lists.length > 0 ? ` (the lists are ${quoted(lists)})` : ''}; to make it, run \`trackwatch ${o.command}\` with --create.`);
}
