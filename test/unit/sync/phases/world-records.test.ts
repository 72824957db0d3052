// The world-records phase alone, with a top route the test plays: one request per map of the lists that ask, a secret
// WR said as secret (its holder kept, no ghost asked), hostile answers left out with the reason and nothing stored,
// lists over 100 maps off unless set on, and nothing asked with world records off or without a Live client.
import { beforeEach, describe, expect, it } from 'vitest';
import type { WorldRecord } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { worldRecordsPhase } from '../../../../src-main/core/sync/phases/world-records.ts';
import { accountId, makeMap, mapId, mapUid, memoryStore } from '../../store/fixtures.ts';
import { phaseContext } from './context.ts';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const SET = Date.parse('2026-06-01T12:00:00Z') / 1000;

describe('the world-records phase', () => {
  let store: Store;
  let asked: string[];
  let answers: Map<string, WorldRecord | null>;
  const worldRecord = async (uid: string): Promise<WorldRecord | null> => {
    asked.push(uid);
    return answers.get(uid) ?? null;
  };
  const wr = (n: number, o: Partial<WorldRecord> = {}): WorldRecord => ({
    mapUid: mapUid(n), accountId: accountId(90 + n), score: 40_000 + n, position: 1, setAt: new Date(SET * 1000).toISOString(), timestamp: SET, ...o,
  });
  function list(name: string, maps: number, first = 1): void {
    const all = Array.from({ length: maps }, (_, i) => makeMap(first + i));
    store.maps.upsert(all);
    store.watchlists.create(name);
    store.maps.addRefs(name, all.map((m) => ({ mapUid: m.mapUid })));
    store.players.add(name, [{ accountId: accountId(1) }]);
  }
  const runPhase = async (o: { list?: string; worldRecords?: boolean; withLive?: boolean } = {}) => {
    const ctx = phaseContext({
      store, options: { ...(o.list ? { list: o.list } : {}), ...(o.worldRecords === false ? { worldRecords: false } : {}) },
      deps: o.withLive === false ? {} : { worldRecord, now: () => NOW },
    });
    await worldRecordsPhase.run(ctx);
    return ctx.run;
  };

  beforeEach(async () => {
    store = await memoryStore();
    asked = [];
    answers = new Map();
  });

  it('asks each map of the list once, stores who holds it and since when, and hands visible holders to the records phase', async () => {
    list('Fall', 3);
    answers.set(mapUid(1), wr(1));
    answers.set(mapUid(2), wr(2, { score: null }));
    const run = await runPhase({ list: 'Fall' });
    expect(asked.sort()).toEqual([mapUid(1), mapUid(2), mapUid(3)].sort());
    expect(run.worldRecords).toMatchObject({ asked: 3, found: 1, secret: 1, empty: 1, rejected: 0 });
    expect(store.worldRecords.get(mapId(1))).toMatchObject({ accountId: accountId(91), score: 40_001, secret: false, setAt: '2026-06-01T12:00:00.000Z', readAt: NOW.toISOString() });
    // A secret WR: said as secret, its holder kept, its score never guessed, and its ghost not asked (it cannot be watched).
    expect(store.worldRecords.get(mapId(2))).toMatchObject({ accountId: accountId(92), score: null, secret: true });
    expect([...run.worldRecordHolders]).toEqual([[mapId(1), accountId(91)]]);
    expect(store.worldRecords.get(mapId(3))).toBeUndefined();
    expect(run.errors).toEqual([]);
  });

  it.each([
    ['a negative score', { score: -5 }, 'its score -5 is negative'],
    ['the sentinel as a score', { score: 4294967295 }, 'its score 4294967295 is not a score (2^32-1 or more)'],
    ['no time at all', { score: 0 }, 'its time is 0 ms'],
    ['a holder that is no account', { accountId: 'admin; DROP TABLE' }, 'its holder "admin; DROP TABLE" is not an account ID'],
    ['a date in the future', { timestamp: NOW.getTime() / 1000 + 30 * 86400 }, 'is in the future'],
    ['a date before the game', { timestamp: 1000 }, 'is before the game came out'],
    ['a position that is not one', { position: 0 }, 'its position 0 is not a position'],
  ])('leaves out %s with the reason, and keeps the WR stored before', async (_what, hostile, reason) => {
    list('Fall', 1);
    answers.set(mapUid(1), wr(1));
    await runPhase({ list: 'Fall' });
    answers.set(mapUid(1), wr(1, { accountId: accountId(99), ...hostile }));
    const run = await runPhase({ list: 'Fall' });
    expect(run.worldRecords).toMatchObject({ asked: 1, rejected: 1, found: 0 });
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.mapId).toBe(mapId(1));
    expect(run.errors[0]!.message).toContain('the world record the service gave was left out: ');
    expect(run.errors[0]!.message).toContain(reason);
    expect(store.worldRecords.get(mapId(1))).toMatchObject({ accountId: accountId(91), score: 40_001 });
    expect(run.worldRecordHolders.size).toBe(0);
  });

  it('a list over 100 maps asks nothing by default, and everything once set on; a small list set off asks nothing', async () => {
    list('Big', 101);
    expect(store.worldRecords.setting('Big')).toEqual({ set: null, on: false });
    await runPhase({ list: 'Big' });
    expect(asked).toEqual([]);
    store.worldRecords.setSetting('Big', true);
    await runPhase({ list: 'Big' });
    expect(asked).toHaveLength(101);

    asked = [];
    list('Small', 2, 500);
    expect(store.worldRecords.setting('Small')).toEqual({ set: null, on: true });
    store.worldRecords.setSetting('Small', false);
    await runPhase({ list: 'Small' });
    expect(asked).toEqual([]);
  });

  it('a sync of every list asks a map two lists share once, and only lists that ask', async () => {
    list('A', 2);
    list('B', 2, 2); // maps 2 and 3
    list('C', 1, 700);
    store.worldRecords.setSetting('C', false);
    await runPhase();
    expect(asked.sort()).toEqual([mapUid(1), mapUid(2), mapUid(3)].sort());
  });

  it('asks nothing with world records off, or without a Live client', async () => {
    list('Fall', 2);
    await runPhase({ list: 'Fall', worldRecords: false });
    await runPhase({ list: 'Fall', withLive: false });
    expect(asked).toEqual([]);
  });
});
