// The map page's Splits with the world record as a reference (issue 15 part 4): the WR's ghost compared with the
// watched runs (its deltas to the best and to me, each run's delta to it) without counting in their best or ideal run,
// and a WR that is secret, without a ghost or of another checkpoint count said in one line instead.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { printSplits } from '../../../src-main/cli/commands/splits.ts';
import { processIo } from '../../../src-main/cli/io.ts';
import { Output } from '../../../src-main/cli/output.ts';
import type { SplitsWrite, Store } from '../../../src-main/core/store/index.ts';
import { splitsForMap } from '../../../src-main/service/splits-view.ts';
import { formatDelta, formatTime } from '../../../src-main/shared/format.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore, recordId } from '../../unit/store/fixtures.ts';

const ME = accountId(1);
const HOLDER = accountId(9);
const HOLDER_RECORD = recordId(9001);
let store: Store;

const read = (checkpoints: number[]): SplitsWrite => ({
  readerVersion: 1, sha256: 'b'.repeat(64), state: 'read', ghostIndex: 0, ghostName: null, raceTime: checkpoints.at(-1)!,
  respawns: null, stuntScore: null, checkpoints, stuntScores: [], laps: null,
});

/** Me and a rival with their ghosts read; the WR as the top route gave it, its holder's record read beside them. */
function seed(wr: { score: number | null; ghost?: SplitsWrite | 'none' }): void {
  store.maps.upsert([makeMap(1)]);
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(1) }]);
  store.players.add('L', [{ accountId: ME }, { accountId: accountId(2) }]);
  const run = store.syncRuns.start();
  const mine = makeRecord(1, 1, { time: 30_000 });
  const rival = makeRecord(1, 2, { time: 29_500 });
  const holder = makeRecord(1, 9, { time: wr.score ?? 27_000, mapRecordId: HOLDER_RECORD });
  store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run, records: [mine, rival, holder], beside: [HOLDER] });
  store.splits.put(mine.mapRecordId, read([10_000, 20_000, 30_000]));
  store.splits.put(rival.mapRecordId, read([10_200, 19_500, 29_500]));
  store.worldRecords.save([{ mapId: mapId(1), accountId: HOLDER, score: wr.score, setAt: '2025-01-01T00:00:00.000Z', readAt: '2025-01-02T00:00:00.000Z' }]);
  if (wr.score !== null) store.worldRecords.setHolderRecord(mapId(1), HOLDER, HOLDER_RECORD);
  if (wr.ghost !== undefined && wr.ghost !== 'none') store.splits.put(HOLDER_RECORD, wr.ghost);
}

const view = () => splitsForMap(store, { map: mapUid(1), list: 'L' }, ME);

/** What `trackwatch splits` prints for a view. */
function printed(v: ReturnType<typeof view>): string {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    printSplits(new Output(processIo()), v);
  } finally {
    spy.mockRestore();
  }
  return out.join('');
}

beforeEach(async () => {
  store = await memoryStore();
});
afterEach(() => store.close());

describe('the world record in the splits view', () => {
  it('compares its ghost with the watched runs, checkpoint by checkpoint, without counting it in their best or ideal', () => {
    seed({ score: 27_000, ghost: read([9_000, 18_000, 27_000]) });
    const v = view();
    expect(v.worldRecord).toMatchObject({ accountId: HOLDER, time: 27_000, secret: false, mapRecordId: HOLDER_RECORD, missing: null });
    const wr = v.worldRecord!.run!;
    expect(wr).toMatchObject({
      recordId: HOLDER_RECORD, time: 27_000, isMe: false, comparable: true, note: null,
      checkpoints: [9_000, 18_000, 27_000], sectors: [9_000, 9_000, 9_000],
      // WR − the best watched split (10_000, 19_500, 29_500) and WR − mine.
      deltaToBest: [-1_000, -1_500, -2_500], deltaToMe: [-1_000, -2_000, -3_000],
    });
    expect(v.players.map((p) => [p.accountId, p.deltaToWorldRecord])).toEqual([
      [accountId(2), [1_200, 1_500, 2_500]],
      [ME, [1_000, 2_000, 3_000]],
    ]);
    // The watched comparison is what it was without a WR: the holder is nobody's rival here.
    expect(v.players.map((p) => p.accountId)).not.toContain(HOLDER);
    expect(v.ideal.time).toBe(10_000 + 9_300 + 10_000);
    expect(v.players.find((p) => p.isMe)!.deltaToBest).toEqual([0, 500, 500]);
    // `trackwatch splits` says it too: a "to WR" column, and my gap at the finish.
    expect(printed(v)).toContain(`world record: ${HOLDER.slice(0, 8)} ${formatTime(27_000)}, you ${formatDelta(3_000)} at the finish`);
    expect(printed(v)).toContain('to WR');
  });

  it('says a secret WR, a WR without its ghost, and an unreadable ghost in one line each, with no reference', async () => {
    seed({ score: null });
    expect(view().worldRecord).toMatchObject({ secret: true, time: null, run: null, missing: { reason: 'secret', note: expect.stringContaining('secret') } });
    expect(printed(view())).toContain(`world record: ${HOLDER.slice(0, 8)}: ${view().worldRecord!.missing!.note}`);
    expect(view().players.every((p) => p.deltaToWorldRecord === undefined)).toBe(true);
    store.close();

    store = await memoryStore();
    seed({ score: 27_000, ghost: 'none' });
    expect(view().worldRecord).toMatchObject({ secret: false, time: 27_000, run: null, missing: { reason: 'noReplay', note: expect.stringContaining('not downloaded') } });
    store.close();

    store = await memoryStore();
    seed({ score: 27_000, ghost: { readerVersion: 1, sha256: 'c'.repeat(64), state: 'unreadable', errorCode: 'TRUNCATED', error: 'the file ends inside its body' } });
    expect(view().worldRecord!.missing).toEqual({ reason: 'unreadable', note: 'its replay could not be read: the file ends inside its body.' });
  });

  it("shows a WR ghost of another checkpoint count (an older version of the map) with why, and no deltas to it", () => {
    seed({ score: 27_000, ghost: read([13_000, 27_000]) });
    const wr = view().worldRecord!.run!;
    expect(wr).toMatchObject({ comparable: false, note: expect.stringContaining('2 checkpoints where the map has 3'), deltaToMe: [null, null, null] });
    expect(view().players.every((p) => p.deltaToWorldRecord === undefined)).toBe(true);
  });

  it('is null for a map whose WR no sync read, and the holder whose record was not read is said', async () => {
    seed({ score: 27_000, ghost: read([9_000, 18_000, 27_000]) });
    store.worldRecords.save([{ mapId: mapId(1), accountId: accountId(8), score: 26_000, setAt: null, readAt: '2025-01-03T00:00:00.000Z' }]);
    // A new holder: their record is not read yet.
    expect(view().worldRecord).toMatchObject({ accountId: accountId(8), time: 26_000, run: null, missing: { reason: 'noRecord' } });
    store.close();
    store = await memoryStore();
    store.maps.upsert([makeMap(1)]);
    store.watchlists.create('L');
    store.maps.addRefs('L', [{ mapId: mapId(1) }]);
    expect(view().worldRecord).toBeNull();
  });
});
