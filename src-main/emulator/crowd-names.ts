// The crowd's display names. The real OAuth API names every account, so the world record's holder has a name too,
// and a player can add that holder by it (docs/nadeo-api.md "Player names"). Only the crowd players that Core knows
// records of (the first CROWD_RECORDS of each populated map, world.ts) are named: the rest of the crowd is only
// scores here. The names are made from each account ID, unique among themselves and apart from the dataset's own.
import type { Dataset } from './dataset.ts';
import { KeyedCache } from './keyed-cache.ts';
import { fnv1a } from './prng.ts';
import { crowdOf, crowdPlayer, CROWD_RECORDS } from './world.ts';

const STARTS = ['Bly', 'Cor', 'Dax', 'Fen', 'Gri', 'Hol', 'Jas', 'Kro', 'Lum', 'Mor', 'Nyx', 'Pra', 'Quin', 'Riv', 'Sol', 'Tav', 'Ulr', 'Vex', 'Wre', 'Zyl'];
const ENDS = ['ax', 'en', 'ic', 'ora', 'us', 'yn', 'ette', 'io', 'ar', 'el'];

/** Names by account ID (lower case) and account IDs by name (lower case), both ways for the two OAuth routes. */
export interface NameBook {
  nameOf(accountId: string): string | undefined;
  idOf(displayName: string): string | undefined;
}

interface CrowdBook {
  byId: Map<string, string>;
  byName: Map<string, string>;
}

const books = new KeyedCache<Dataset, CrowdBook>();

/** A name made from the account: a word of two syllables and four digits ("Vexora4821"). */
function crowdName(accountId: string, attempt: number): string {
  const h = fnv1a(`crowd-name|${accountId}|${attempt}`);
  return `${STARTS[h % STARTS.length]}${ENDS[(h >>> 8) % ENDS.length]}${1000 + ((h >>> 16) % 9000)}`;
}

function crowdBookOf(dataset: Dataset, nowMs: number): CrowdBook {
  // What the book is made from: each map's named crowd (its size follows the population and the map's kind) and the
  // dataset's own names, which the crowd's keep apart from.
  const key = `${dataset.maps.map((m) => `${m.mapType}|${m.population ?? 0}`).join(',')}\n${Object.values(dataset.displayNames ?? {}).join('\n')}`;
  return books.get(dataset, key, () => {
    const taken = new Set(Object.values(dataset.displayNames ?? {}).map((n) => n.toLowerCase()));
    const book: CrowdBook = { byId: new Map(), byName: new Map() };
    for (const map of dataset.maps) {
      const named = Math.min(CROWD_RECORDS, crowdOf(map).length);
      for (let rank = 0; rank < named; rank++) {
        const accountId = crowdPlayer(map, rank, nowMs).accountId.toLowerCase();
        if (book.byId.has(accountId)) continue;
        let attempt = 0;
        let name = crowdName(accountId, attempt);
        // Display names are unique: a clash draws again, the same way every time.
        while (taken.has(name.toLowerCase())) name = crowdName(accountId, ++attempt);
        taken.add(name.toLowerCase());
        book.byId.set(accountId, name);
        book.byName.set(name.toLowerCase(), accountId);
      }
    }
    return book;
  });
}

/** The dataset's display names first, then the named crowd's. */
export function nameBookOf(dataset: Dataset, now: () => number): NameBook {
  const own = (): Record<string, string> => dataset.displayNames ?? {};
  return {
    nameOf(accountId) {
      const id = accountId.toLowerCase();
      return own()[accountId] ?? own()[id] ?? crowdBookOf(dataset, now()).byId.get(id);
    },
    idOf(displayName) {
      const entries = Object.entries(own());
      // Display names are unique; the lookup ignores letter case like the service's.
      const hit = entries.find(([, n]) => n === displayName) ?? entries.find(([, n]) => n.toLowerCase() === displayName.toLowerCase());
      return hit?.[0] ?? crowdBookOf(dataset, now()).byName.get(displayName.toLowerCase());
    },
  };
}
