// The generator: deterministic, and every kind of map and record the seed and API-FACTS describe.
import { describe, expect, it } from 'vitest';
import { evolveDataset, generateDataset, parseDataset, replayBytesFor } from '../../../src-main/emulator/index.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SENTINEL = 4294967295;

describe('generateDataset', () => {
  it('is deterministic: the same seed gives identical JSON, another seed different JSON', () => {
    const a = JSON.stringify(generateDataset({ seed: 1, maps: 10, players: 8 }));
    expect(JSON.stringify(generateDataset({ seed: 1, maps: 10, players: 8 }))).toBe(a);
    expect(JSON.stringify(generateDataset({ seed: 2, maps: 10, players: 8 }))).not.toBe(a);
  });

  it('passes its own schema', () => {
    const dataset = generateDataset({ seed: 3, maps: 30, players: 20 });
    expect(parseDataset(JSON.parse(JSON.stringify(dataset)))).toEqual(dataset);
  });

  it.each([6, 7, 24])('has every kind of map with %i maps: Race, Race with clones, Stunt, Platform, a secret threshold', (maps) => {
    const { maps: all, records } = generateDataset({ seed: maps, maps, players: 6 });
    const race = all.filter((m) => m.mapType === 'TrackMania\\TM_Race');
    expect(race.some((m) => !m.hasClones)).toBe(true);
    expect(race.some((m) => m.hasClones)).toBe(true);
    expect(all.some((m) => m.mapType === 'TrackMania\\TM_Stunt')).toBe(true);
    expect(all.some((m) => m.mapType === 'TrackMania\\TM_Platform')).toBe(true);
    const secret = all.find((m) => m.secretThreshold !== undefined);
    const hidden = records.filter((r) => r.mapId === secret?.mapId && r.recordScore.time < (secret?.secretThreshold ?? 0));
    expect(hidden.length).toBeGreaterThan(0);
  });

  it('stores game modes by map kind: TimeAttackClone for clone maps personal bests, Stunt, Platform, TimeAttack', () => {
    const { maps, records } = generateDataset({ seed: 8, maps: 24, players: 10 });
    for (const record of records) {
      const map = maps.find((m) => m.mapId === record.mapId);
      const expected = map?.mapType.endsWith('TM_Stunt') ? 'Stunt' : map?.mapType.endsWith('TM_Platform') ? 'Platform' : map?.hasClones && record.scopeType === 'PersonalBest' ? 'TimeAttackClone' : 'TimeAttack';
      expect(record.gameMode).toBe(expected);
    }
  });

  it('uses v4-shaped lowercase UUIDs, alphanumeric UIDs of 24-27 characters and ISO timestamps with an offset', () => {
    const { maps, records } = generateDataset({ seed: 4, maps: 20, players: 10 });
    for (const m of maps) {
      expect(m.mapId).toMatch(UUID_V4);
      expect(m.author).toMatch(UUID_V4);
      expect(m.mapUid).toMatch(/^[A-Za-z0-9]{24,27}$/);
      expect(m.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    }
    for (const r of records) {
      expect(r.accountId).toMatch(UUID_V4);
      expect(r.mapRecordId).toMatch(UUID_V4);
      expect(Date.parse(r.timestamp)).toBeGreaterThanOrEqual(Date.parse(maps.find((m) => m.mapId === r.mapId)?.timestamp ?? ''));
    }
    expect(new Set(maps.map((m) => m.mapUid.length)).size).toBeGreaterThan(1);
  });

  it('has consistent medals: author < gold < silver < bronze on time maps, reversed on Stunt; record medals match', () => {
    const { maps, records } = generateDataset({ seed: 5, maps: 24, players: 10 });
    for (const m of maps) {
      const order = [m.authorScore, m.goldScore, m.silverScore, m.bronzeScore];
      const sorted = m.mapType.endsWith('TM_Stunt') ? [...order].sort((a, b) => b - a) : [...order].sort((a, b) => a - b);
      expect(order).toEqual(sorted);
      expect(new Set(order).size).toBe(4);
    }
    const medals = new Set(records.map((r) => r.medal));
    for (const medal of [0, 1, 2, 3, 4]) expect(medals.has(medal)).toBe(true);
  });

  it('covers about 70-85% of player/map pairs with a personal best, and adds season records', () => {
    const { maps, records } = generateDataset({ seed: 6, maps: 40, players: 30 });
    const personalBests = records.filter((r) => r.scopeType === 'PersonalBest');
    const coverage = personalBests.length / (maps.length * 30);
    expect(coverage).toBeGreaterThan(0.65);
    expect(coverage).toBeLessThan(0.9);
    const seasons = records.filter((r) => r.scopeType === 'Season');
    expect(seasons.length).toBeGreaterThan(0);
    expect(new Set(seasons.map((r) => r.scopeId)).size).toBeGreaterThan(1);
    expect(personalBests.every((r) => r.scopeId === null)).toBe(true);
  });

  it('holds formatting codes and hostile text in map names, display names and replay file names', () => {
    const { maps, records, displayNames } = generateDataset({ seed: 7, maps: 16, players: 12 });
    const mapNames = maps.map((m) => m.name);
    for (const name of ['$i$a1bLaser $fff- Race', '$o$wBold', '<img src=x onerror=alert(1)>', '=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(1)'])
      expect(mapNames).toContain(name);
    expect(mapNames.some((n) => n.includes('\n'))).toBe(true);
    expect(mapNames.some((n) => n.includes(',') && n.includes('"'))).toBe(true);
    expect(mapNames.some((n) => /\p{Extended_Pictographic}/u.test(n))).toBe(true);
    const names = Object.values(displayNames ?? {});
    expect(names).toContain('<script>alert(1)</script>');
    expect(names.some((n) => n.startsWith('$'))).toBe(true);
    expect(Object.keys(displayNames ?? {}).length).toBeGreaterThan(12 * 0.8);
    const files = records.map((r) => r.filename);
    expect(files).toContain('..\\..\\evil.replay.gbx');
    expect(files).toContain('../../etc/passwd');
    expect(records.some((r) => r.recordScore.respawnCount === SENTINEL)).toBe(true);
  });

  it('rejects a negative or fractional size', () => {
    expect(() => generateDataset({ seed: 1, maps: -1, players: 2 })).toThrow(/maps/);
    expect(() => generateDataset({ seed: 1, maps: 2, players: 1.5 })).toThrow(/players/);
  });
});

describe('replayBytesFor', () => {
  it('gives a few KB starting with GBX, the same for the same record and different for another', () => {
    const { records } = generateDataset({ seed: 9, maps: 6, players: 4 });
    const [a, b] = records;
    if (!a || !b) throw new Error('no records');
    const bytes = replayBytesFor(a);
    expect(bytes.subarray(0, 3).toString('latin1')).toBe('GBX');
    expect(bytes.length).toBeGreaterThan(1024);
    expect(bytes.length).toBeLessThan(16 * 1024);
    expect(replayBytesFor(structuredClone(a)).equals(bytes)).toBe(true);
    expect(replayBytesFor(b).equals(bytes)).toBe(false);
  });
});

describe('evolveDataset', () => {
  it('is deterministic for a seed and keeps the dataset valid', () => {
    const a = generateDataset({ seed: 10, maps: 8, players: 8 });
    const b = structuredClone(a);
    expect(evolveDataset(a, { seed: 3, fraction: 0.25 })).toEqual(evolveDataset(b, { seed: 3, fraction: 0.25 }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(() => parseDataset(JSON.parse(JSON.stringify(a)))).not.toThrow();
  });

  it('changes nothing with fraction 0', () => {
    const a = generateDataset({ seed: 10, maps: 8, players: 8 });
    const before = JSON.stringify(a);
    expect(evolveDataset(a, { seed: 3, fraction: 0 })).toEqual({ improved: 0, added: 0 });
    expect(JSON.stringify(a)).toBe(before);
  });
});
