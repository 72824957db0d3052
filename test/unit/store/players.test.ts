import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, memoryStore } from './fixtures.ts';

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
  store.watchlists.create('Friends');
  store.watchlists.create('Rivals');
});
afterEach(() => store.close());

describe('players', () => {
  it('adds accounts with nicknames to a list, in lower case, reporting repeats and bad IDs', () => {
    const result = store.players.add('Friends', [
      { accountId: accountId(1).toUpperCase(), nickname: ' Bob ' },
      { accountId: accountId(1) },
      { accountId: 'nobody' },
      { accountId: accountId(2), nickname: 'a\tb' },
    ]);
    expect(result.added).toEqual([accountId(1)]);
    expect(result.alreadyListed).toEqual([accountId(1)]);
    expect(result.invalid).toEqual([
      { accountId: 'nobody', reason: 'account ID "nobody" is not a UUID' },
      { accountId: accountId(2), reason: 'a nickname cannot hold line breaks, tabs or other control characters' },
    ]);
    expect(store.players.get(accountId(1))).toMatchObject({ nickname: 'Bob', displayName: null, name: 'Bob' });
  });

  it('keeps a nickname when the account is added again, with none or another one, and says which it kept', () => {
    store.players.add('Friends', [{ accountId: accountId(1), nickname: 'Bob' }, { accountId: accountId(2) }]);
    expect(store.players.add('Rivals', [{ accountId: accountId(1) }]).nicknamesKept).toEqual([]);
    expect(store.players.get(accountId(1))?.nickname).toBe('Bob');
    const again = store.players.add('Rivals', [{ accountId: accountId(1), nickname: 'Robert' }, { accountId: accountId(2), nickname: 'Ann' }]);
    expect(again.nicknamesKept).toEqual([{ accountId: accountId(1), kept: 'Bob', given: 'Robert' }]);
    expect(store.players.get(accountId(1))?.nickname).toBe('Bob');
    // An account without a nickname takes the one given.
    expect(store.players.get(accountId(2))?.nickname).toBe('Ann');
    store.players.setNickname(accountId(1), 'Robert');
    expect(store.players.get(accountId(1))?.nickname).toBe('Robert');
    store.players.setNickname(accountId(1), '');
    expect(store.players.get(accountId(1))?.nickname).toBeNull();
  });

  it('shows your nickname for a player, else their display name, else the start of the account ID (shared/leaderboard.ts)', () => {
    store.players.add('Friends', [{ accountId: accountId(1), nickname: 'Bob' }, { accountId: accountId(2) }]);
    expect(store.players.nameOf(accountId(1))).toBe('Bob');
    expect(store.players.nameOf(accountId(2))).toBe(accountId(2).slice(0, 8));
    store.players.setDisplayNames(new Map([[accountId(1), 'Bobby_TM'], [accountId(2), 'Speedy']]), '2025-01-01T00:00:00.000Z');
    expect(store.players.nameOf(accountId(1))).toBe('Bob');
    expect(store.players.nameOf(accountId(2))).toBe('Speedy');
    expect(store.players.get(accountId(1))?.displayNameFetchedAt).toBe('2025-01-01T00:00:00.000Z');
    expect(store.players.nameOf(accountId(3))).toBe(accountId(3).slice(0, 8));
  });

  it('lists a list\'s players in the order added, or every watched player', () => {
    store.players.add('Friends', [{ accountId: accountId(2) }, { accountId: accountId(1) }]);
    store.players.add('Rivals', [{ accountId: accountId(3) }]);
    expect(store.players.list('Friends').map((p) => p.accountId)).toEqual([accountId(2), accountId(1)]);
    expect(store.players.list().map((p) => p.accountId).sort()).toEqual([accountId(1), accountId(2), accountId(3)].sort());
  });

  it('removes from one list only', () => {
    store.players.add('Friends', [{ accountId: accountId(1) }]);
    store.players.add('Rivals', [{ accountId: accountId(1) }]);
    expect(store.players.remove('Friends', accountId(1).toUpperCase())).toBe(1);
    expect(store.players.remove('Friends', [accountId(1)])).toBe(0);
    expect(store.players.list('Friends')).toEqual([]);
    expect(store.players.list('Rivals')).toHaveLength(1);
  });

  it('asks for names of watched players and listed map authors with no name or an old one, not of others', () => {
    store.players.add('Friends', [{ accountId: accountId(1) }, { accountId: accountId(2) }]);
    store.maps.upsert([makeMap(1, { author: accountId(50) }), makeMap(2, { author: accountId(60) })]);
    store.maps.addRefs('Friends', [{ mapId: makeMap(1).mapId }]); // map 2's author is in no list's map
    store.players.setDisplayNames(new Map([[accountId(1), 'Fresh']]), '2025-06-01T00:00:00.000Z');
    store.players.setDisplayNames(new Map([[accountId(2), 'Old']]), '2025-01-01T00:00:00.000Z');
    store.players.setDisplayNames(new Map([[accountId(99), 'Stranger']]), '2025-01-01T00:00:00.000Z');
    expect(store.players.needingDisplayNames('2025-05-01T00:00:00.000Z')).toEqual([accountId(2), accountId(50)].sort());
  });

  it('names a player by the name they were just found by, until a sync asks the service for its own spelling', () => {
    store.players.add('Friends', [{ accountId: accountId(1) }, { accountId: accountId(2) }]);
    store.players.setDisplayNames(new Map([[accountId(2), 'Speedy']]), '2025-06-01T00:00:00.000Z');
    store.players.nameFoundBy(accountId(1), 'bobby_tm');
    store.players.nameFoundBy(accountId(2), 'speedy');
    expect(store.players.nameOf(accountId(1))).toBe('bobby_tm');
    // A name the service gave stays; the found one is not a fetch, so the sync still asks for it.
    expect(store.players.nameOf(accountId(2))).toBe('Speedy');
    expect(store.players.get(accountId(1))?.displayNameFetchedAt).toBeNull();
    expect(store.players.needingDisplayNames('2025-05-01T00:00:00.000Z')).toEqual([accountId(1)]);
  });

  it('stamps accounts that were asked about but got no name, so they wait for the cache period', () => {
    store.players.add('Friends', [{ accountId: accountId(1) }]);
    store.players.setDisplayNames(new Map(), '2025-06-01T00:00:00.000Z', [accountId(1)]);
    expect(store.players.needingDisplayNames('2025-05-01T00:00:00.000Z')).toEqual([]);
    expect(store.players.get(accountId(1))?.displayName).toBeNull();
  });
});
