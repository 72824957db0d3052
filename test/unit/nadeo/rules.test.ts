import { describe, expect, it } from 'vitest';
import { gameModeFor, toPlayerRecord, triageKeys } from '../../../src-main/core/nadeo/core/rules.ts';
import { isUuid } from '../../../src-main/shared/ids.ts';
import { MapRecordWire } from '../../../src-main/core/nadeo/core/schemas.ts';
import { SENTINEL_U32 } from '../../../src-main/core/model.ts';
import { sampleRecord } from './fixtures.ts';

describe('gameModeFor (seed 4.2 rules 3-5)', () => {
  it('derives the mode from map type, clones and season', () => {
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Stunt', hasClones: true })).toBe('Stunt');
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Platform', hasClones: false })).toBe('Platform');
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Race', hasClones: true })).toBe('TimeAttackClone');
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Race', hasClones: true }, { seasonId: 'abc' })).toBe('TimeAttack');
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Race', hasClones: false })).toBe('TimeAttack');
    expect(gameModeFor({ mapType: 'TrackMania\\TM_Royal', hasClones: false })).toBe('TimeAttack');
  });
});

describe('sentinels', () => {
  it('turns a hidden time into hidden: true, time: null and an untracked respawn count into null', () => {
    const hidden = toPlayerRecord(MapRecordWire.parse({ ...sampleRecord(1), recordScore: { time: SENTINEL_U32, score: 0, respawnCount: SENTINEL_U32 } }));
    expect(hidden).toMatchObject({ hidden: true, time: null, respawnCount: null });
    const shown = toPlayerRecord(MapRecordWire.parse({ ...sampleRecord(2), recordScore: { time: 22340, score: 0, respawnCount: 3 } }));
    expect(shown).toMatchObject({ hidden: false, time: 22340, respawnCount: 3, scopeId: null, scopeType: 'PersonalBest' });
  });
  it('a hidden Stunt entry with the sentinel in its score is hidden, with no score and no time', () => {
    const stunt = toPlayerRecord(MapRecordWire.parse({ ...sampleRecord(3), gameMode: 'Stunt', recordScore: { time: 45_000, score: SENTINEL_U32, respawnCount: 0 } }));
    expect(stunt).toMatchObject({ hidden: true, time: null, score: 0, respawnCount: 0 });
  });
});

describe('ID triage', () => {
  it('triage de-duplicates (case-insensitively for UUIDs) and keeps the caller spelling', () => {
    const t = triageKeys(['8E2ED4A2-1A55-4A26-9DB4-6B2B7E9A4F1B', '8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b', 'bad', 'bad'], isUuid, (s) => s.toLowerCase());
    expect(t.keys).toEqual(['8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b']);
    expect(t.original.get('8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b')).toBe('8E2ED4A2-1A55-4A26-9DB4-6B2B7E9A4F1B');
    expect(t.invalid).toEqual(['bad']);
  });
});
