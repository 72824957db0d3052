// Reading a replay's splits for its record: the record's ghost is picked, and a file no run could be gets one line.
import { describe, expect, it } from 'vitest';
import type { GhostRun } from '../../../src-main/core/gbx/index.ts';
import { loginOf, readSplits, recordGhost } from '../../../src-main/core/splits/read.ts';
import { damage } from '../../../src-main/emulator/gbx/index.ts';
import { ghostBytes, replayBytes } from '../../helpers/ghosts.ts';

const ACCOUNT = '8cf6878a-a4fa-41d8-ba4e-210fca0fcccd';
const record = { accountId: ACCOUNT, time: 30000, score: 0 };

function run(overrides: Partial<GhostRun>): GhostRun {
  return { name: null, nickname: null, login: null, mapUid: null, raceTime: null, respawns: null, stuntScore: null, checkpoints: [], checkpointStuntScores: [], ...overrides };
}

describe('readSplits', () => {
  it('reads the checkpoint times of the record ghost', () => {
    const read = readSplits(ghostBytes(ACCOUNT, [10000, 20000, 30000]), record);
    expect(read).toMatchObject({ state: 'read', ghostIndex: 0, raceTime: 30000, checkpoints: [10000, 20000, 30000], stuntScores: [0, 0, 0] });
  });

  it("takes the laps from the map a replay holds (1 when not a lap race); a ghost file's are unknown", () => {
    const times = [10000, 20000, 30000, 40000, 50000, 60000];
    expect(readSplits(replayBytes(ACCOUNT, times, 3), { ...record, time: 60000 })).toMatchObject({ state: 'read', checkpoints: times, laps: 3 });
    expect(readSplits(replayBytes(ACCOUNT, times, 1), { ...record, time: 60000 })).toMatchObject({ state: 'read', laps: 1 });
    expect(readSplits(ghostBytes(ACCOUNT, times), { ...record, time: 60000 })).toMatchObject({ state: 'read', laps: null });
  });

  it('keeps a checkpoint the file stores as -1 as null', () => {
    const read = readSplits(ghostBytes(ACCOUNT, [10000, -1, 30000]), record);
    expect(read).toMatchObject({ state: 'read', checkpoints: [10000, null, 30000] });
  });

  it('ends a ghost of 10,000 checkpoints in one clear line, not a table of 10,000 rows', () => {
    const times = Array.from({ length: 10_000 }, (_, i) => (i + 1) * 10);
    const read = readSplits(ghostBytes(ACCOUNT, times), record);
    expect(read).toEqual({ state: 'unreadable', errorCode: 'bad-splits', error: 'the ghost claims 10000 checkpoints, more than the 1000 a map can hold' });
  });

  it('ends negative times in one clear line', () => {
    const read = readSplits(ghostBytes(ACCOUNT, [10000, -700, 30000]), record);
    expect(read).toMatchObject({ state: 'unreadable', errorCode: 'bad-splits', error: expect.stringMatching(/checkpoint 2 has a negative or broken time \(-700 ms\)/) });
  });

  it("says what the reader says of a damaged file, and never throws", () => {
    const read = readSplits(damage(ghostBytes(ACCOUNT, [10000, 20000]), 'truncated'), record);
    expect(read).toMatchObject({ state: 'unreadable', errorCode: 'truncated' });
    expect(readSplits(new Uint8Array(0), record)).toMatchObject({ state: 'unreadable', errorCode: 'empty' });
  });
});

describe('recordGhost', () => {
  it("picks the record player's ghost by login among several", () => {
    const ghosts = [run({ login: 'someoneelse', raceTime: 30000 }), run({ login: loginOf(ACCOUNT), raceTime: 31000 })];
    expect(recordGhost(ghosts, record)).toBe(1);
  });

  it("else the one with the record's time", () => {
    expect(recordGhost([run({ raceTime: 29000 }), run({ raceTime: 30000 })], { ...record, accountId: null })).toBe(1);
  });

  it('says so rather than guess when several ghosts and none is the record', () => {
    expect(recordGhost([run({ raceTime: 1 }), run({ raceTime: 2 })], record)).toMatch(/2 ghosts and none is this record's/);
    expect(recordGhost([], record)).toBe('the file holds no ghost');
  });
});
