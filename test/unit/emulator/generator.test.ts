// The generator: deterministic, and every kind of map and record the seed and docs/nadeo-api.md describe.
import { describe, expect, it } from 'vitest';
import { evolveDataset, generateDataset, parseDataset, type Dataset, type DatasetMap, type DatasetRecord } from '../../../src-main/emulator/index.ts';
import type { DatasetRecordScore } from '../../../src-main/emulator/dataset.ts';
import { compareResults, medalOf } from '../../../src-main/emulator/rules.ts';
import { HOSTILE_NOW, SEASON_NOW } from '../../integration/emulator/support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SENTINEL = 4294967295;

/** Whether Platform run `a` ranks ahead of `b` by the emulator's reading of the rule, on the dataset's results. */
const isBetterPlatformRun = (a: DatasetRecordScore, b: DatasetRecordScore): boolean => compareResults('platform', a, b) < 0;

describe('generateDataset', () => {
  it('is deterministic: the same seed gives identical JSON, another seed different JSON', () => {
    const a = JSON.stringify(generateDataset({ seed: 1, maps: 10, players: 8, now: HOSTILE_NOW }));
    expect(JSON.stringify(generateDataset({ seed: 1, maps: 10, players: 8, now: HOSTILE_NOW }))).toBe(a);
    expect(JSON.stringify(generateDataset({ seed: 2, maps: 10, players: 8, now: HOSTILE_NOW }))).not.toBe(a);
  });

  it('passes its own schema', () => {
    const dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 30, players: 20 });
    expect(parseDataset(JSON.parse(JSON.stringify(dataset)))).toEqual(dataset);
  });

  it.each([6, 7, 24])('has every kind of map with %i maps: Race, Race with clones, Stunt, Platform, a secret threshold', (maps) => {
    const { maps: all, records } = generateDataset({ now: DATA_NOW, seed: maps, maps, players: 6 });
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
    const { maps, records } = generateDataset({ now: DATA_NOW, seed: 8, maps: 24, players: 10 });
    for (const record of records) {
      const map = maps.find((m) => m.mapId === record.mapId);
      const expected = map?.mapType.endsWith('TM_Stunt') ? 'Stunt' : map?.mapType.endsWith('TM_Platform') ? 'Platform' : map?.hasClones && record.scopeType === 'PersonalBest' ? 'TimeAttackClone' : 'TimeAttack';
      expect(record.gameMode).toBe(expected);
    }
  });

  it('uses v4-shaped lowercase UUIDs, alphanumeric UIDs of 24-27 characters and ISO timestamps with an offset', () => {
    const { maps, records } = generateDataset({ now: DATA_NOW, seed: 4, maps: 20, players: 10 });
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
    const { maps, records } = generateDataset({ now: DATA_NOW, seed: 5, maps: 24, players: 10 });
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
    const { maps, records } = generateDataset({ now: DATA_NOW, seed: 6, maps: 40, players: 30 });
    const personalBests = records.filter((r) => r.scopeType === 'PersonalBest');
    const coverage = personalBests.length / (maps.length * 30);
    expect(coverage).toBeGreaterThan(0.65);
    expect(coverage).toBeLessThan(0.9);
    const seasons = records.filter((r) => r.scopeType === 'Season');
    expect(seasons.length).toBeGreaterThan(0);
    expect(new Set(seasons.map((r) => r.scopeId)).size).toBeGreaterThan(1);
    expect(personalBests.every((r) => r.scopeId === null)).toBe(true);
  });

  it('holds formatting codes and hostile text in map names, display names, club tags and replay file names', () => {
    const { maps, records, displayNames, clubTags } = generateDataset({ now: DATA_NOW, seed: 7, maps: 16, players: 12 });
    const mapNames = maps.map((m) => m.name);
    for (const name of ['$i$a1bLaser $fff- Race', '$o$wBold', '<img src=x onerror=alert(1)>', '=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(1)'])
      expect(mapNames).toContain(name);
    expect(mapNames.some((n) => n.includes('\n'))).toBe(true);
    expect(mapNames.some((n) => n.includes(',') && n.includes('"'))).toBe(true);
    expect(mapNames.some((n) => /\p{Extended_Pictographic}/u.test(n))).toBe(true);
    const names = Object.values(displayNames ?? {});
    expect(names).toContain('<script>alert(1)</script>');
    expect(Object.values(clubTags ?? {}).some((n) => n.startsWith('$'))).toBe(true);
    expect(Object.keys(displayNames ?? {}).length).toBeGreaterThan(12 * 0.8);
    const files = records.map((r) => r.filename);
    expect(files).toContain('..\\..\\evil.replay.gbx');
    expect(files).toContain('../../etc/passwd');
    expect(records.some((r) => r.recordScore.respawnCount === SENTINEL)).toBe(true);
  });

  it('rejects a negative or fractional size', () => {
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: -1, players: 2 })).toThrow(/maps/);
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: 2, players: 1.5 })).toThrow(/players/);
  });
});

const isPlatform = (m: DatasetMap): boolean => m.mapType === 'TrackMania\\TM_Platform';

function platformBoards(dataset: Dataset): Array<{ map: DatasetMap; records: DatasetRecord[] }> {
  return dataset.maps.filter(isPlatform).map((map) => ({ map, records: dataset.records.filter((r) => r.mapId === map.mapId) }));
}

describe('Platform maps as the game has them (map-page.md: medal scores are maximum respawn counts)', () => {
  const datasets = [1, 2, 3, 4, 5].map((seed) => generateDataset({ now: DATA_NOW, seed, maps: 40, players: 20 }));

  it('map-page.md: a Platform map\'s medal scores are small respawn counts, author <= gold <= silver <= bronze', () => {
    const boards = datasets.flatMap(platformBoards);
    expect(boards.length).toBeGreaterThan(5);
    for (const { map } of boards) {
      const medals = [map.authorScore, map.goldScore, map.silverScore, map.bronzeScore];
      for (const medal of medals) expect(Number.isInteger(medal) && medal >= 0 && medal <= 20).toBe(true);
      expect(medals).toEqual([...medals].sort((a, b) => a - b));
    }
    expect(new Set(boards.map(({ map }) => map.authorScore))).toEqual(new Set([0, 1]));
  });

  it('seed 2.2 respawnCount: every Platform record carries a meaningful respawn count, never the 4294967295 sentinel', () => {
    const records = datasets.flatMap(platformBoards).flatMap((b) => b.records);
    expect(records.length).toBeGreaterThan(100);
    for (const r of records) {
      expect(r.recordScore.respawnCount).not.toBe(SENTINEL);
      expect(r.recordScore.respawnCount).toBeLessThan(40);
      expect(r.recordScore.time).toBeGreaterThan(0);
    }
    expect(new Set(records.map((r) => r.recordScore.respawnCount)).size).toBeGreaterThan(4);
  });

  it('map-page.md: a Platform record\'s medal follows its respawn count against the thresholds (not its time), every medal occurs', () => {
    const seen = new Set<number>();
    for (const { map, records } of datasets.flatMap(platformBoards)) {
      for (const r of records) {
        const respawns = r.recordScore.respawnCount;
        const expected = respawns <= map.authorScore ? 4 : respawns <= map.goldScore ? 3 : respawns <= map.silverScore ? 2 : respawns <= map.bronzeScore ? 1 : 0;
        expect(r.medal).toBe(expected);
        seen.add(r.medal);
      }
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('medalOf: respawn counts on Platform (0/1/3/5), times on Race, points on Stunt', () => {
    const platform = { mapType: 'TrackMania\\TM_Platform', hasClones: false, authorScore: 0, goldScore: 1, silverScore: 3, bronzeScore: 5 };
    const medals = [0, 1, 2, 3, 4, 5, 6].map((respawnCount) => medalOf(platform, { respawnCount, time: 1, score: 0 }));
    expect(medals).toEqual([4, 3, 2, 2, 1, 1, 0]);
    // A fast time does not make a Platform medal: respawns do.
    expect(medalOf(platform, { respawnCount: 6, time: 0, score: 0 })).toBe(0);
    // Untracked respawns (2^32-1) earn no Platform medal, however fast.
    expect(medalOf(platform, { respawnCount: SENTINEL, time: 1, score: 0 })).toBe(0);
    const race = { mapType: 'TrackMania\\TM_Race', hasClones: false, authorScore: 20000, goldScore: 22000, silverScore: 24000, bronzeScore: 30000 };
    expect([19999, 20000, 20001, 24000, 30001].map((time) => medalOf(race, { time, score: 0, respawnCount: SENTINEL }))).toEqual([4, 4, 3, 2, 0]);
    const stunt = { mapType: 'TrackMania\\TM_Stunt', hasClones: false, authorScore: 5000, goldScore: 4000, silverScore: 3000, bronzeScore: 2000 };
    expect([5000, 4999, 3000, 1999].map((score) => medalOf(stunt, { time: 60000, score, respawnCount: 0 }))).toEqual([4, 3, 2, 0]);
  });

  it('docs/nadeo-api.md ranking: a Platform run is ranked by respawns, fewest first, then by time', () => {
    expect(isBetterPlatformRun({ respawnCount: 0, time: 90000, score: 0 }, { respawnCount: 1, time: 20000, score: 0 })).toBe(true);
    expect(isBetterPlatformRun({ respawnCount: 2, time: 30000, score: 0 }, { respawnCount: 2, time: 30001, score: 0 })).toBe(true);
    expect(isBetterPlatformRun({ respawnCount: 2, time: 30001, score: 0 }, { respawnCount: 2, time: 30000, score: 0 })).toBe(false);
    expect(isBetterPlatformRun({ respawnCount: 3, time: 1, score: 0 }, { respawnCount: 2, time: 99999, score: 0 })).toBe(false);
    // A run whose respawns were not tracked comes after every counted one.
    expect(isBetterPlatformRun({ respawnCount: 40, time: 99999, score: 0 }, { respawnCount: SENTINEL, time: 1, score: 0 })).toBe(true);
  });

  it('docs/nadeo-api.md ranking: a season record on a Platform map is no better than the personal best (respawns, then time)', () => {
    for (const { records } of datasets.flatMap(platformBoards)) {
      for (const season of records.filter((r) => r.scopeType === 'Season')) {
        const pb = records.find((r) => r.scopeType === 'PersonalBest' && r.accountId === season.accountId);
        if (!pb) throw new Error('a season record without a personal best');
        expect(isBetterPlatformRun(season.recordScore, pb.recordScore)).toBe(false);
      }
    }
  });

  it('docs/nadeo-api.md ranking: evolve improves a Platform personal best by the game\'s order (fewer respawns, or as many and faster)', () => {
    const dataset = generateDataset({ now: DATA_NOW, seed: 12, maps: 40, players: 20 });
    const before = new Map(dataset.records.map((r) => [`${r.mapId}|${r.accountId}|${r.scopeId}`, structuredClone(r)]));
    evolveDataset(dataset, { seed: 4, fraction: 0.5 });
    let fewerRespawns = 0;
    let improved = 0;
    for (const { map, records } of platformBoards(dataset)) {
      for (const r of records.filter((x) => x.scopeType === 'PersonalBest')) {
        const old = before.get(`${r.mapId}|${r.accountId}|${r.scopeId}`);
        if (!old || old.mapRecordId === r.mapRecordId) continue;
        improved++;
        expect(isBetterPlatformRun(r.recordScore, old.recordScore)).toBe(true);
        expect(r.recordScore.time).toBeLessThan(old.recordScore.time);
        if (r.recordScore.respawnCount < old.recordScore.respawnCount) fewerRespawns++;
        expect(r.medal).toBe(medalOf(map, r.recordScore));
      }
    }
    expect(improved).toBeGreaterThan(5);
    expect(fewerRespawns).toBeGreaterThan(0);
  });
});

describe('secret thresholds (seed 2.2 / map-page.md Top Secret)', () => {
  const hiddenOn = (map: DatasetMap, records: DatasetRecord[]): DatasetRecord[] =>
    records.filter((r) => r.mapId === map.mapId && r.scopeType === 'PersonalBest' && r.recordScore.time < map.secretThreshold!);

  it('secretHeavyMaps: that many maps get a threshold (a time, on every kind) hiding most of their personal bests (at least 60% and 2), some stay visible', () => {
    const plain = generateDataset({ seed: 21, maps: 30, players: 15, now: HOSTILE_NOW });
    const heavy = generateDataset({ seed: 21, maps: 30, players: 15, secretHeavyMaps: 4, now: HOSTILE_NOW });
    const changed = heavy.maps.filter((m, i) => m.secretThreshold !== plain.maps[i]?.secretThreshold);
    expect(changed.length).toBeGreaterThanOrEqual(3);
    const heavyMaps = heavy.maps.filter((m) => {
      if (m.secretThreshold === undefined) return false;
      const all = heavy.records.filter((r) => r.mapId === m.mapId && r.scopeType === 'PersonalBest');
      return hiddenOn(m, heavy.records).length >= Math.max(2, 0.6 * all.length);
    });
    expect(heavyMaps.length).toBeGreaterThanOrEqual(4);
    for (const map of heavyMaps) {
      const all = heavy.records.filter((r) => r.mapId === map.mapId && r.scopeType === 'PersonalBest');
      expect(hiddenOn(map, heavy.records).length).toBeLessThan(all.length);
    }
    // Only thresholds change: the rest of the dataset is the one without the option.
    const withoutThresholds = (d: Dataset): string => JSON.stringify({ ...d, maps: d.maps.map(({ secretThreshold: _, ...m }) => m) });
    expect(withoutThresholds(heavy)).toBe(withoutThresholds(plain));
  });

  it('secretHeavyMaps: refuses more maps than can have many secret entries, saying how many can', () => {
    // Two players: no map has three personal bests.
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: 4, players: 2, secretHeavyMaps: 1 })).toThrow(/secretHeavyMaps is 1 but only 0 maps/);
    // Four maps of every kind, Platform included, with enough personal bests.
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: 4, players: 6, secretHeavyMaps: 5 })).toThrow(/secretHeavyMaps is 5 but only 4 maps/);
    expect(generateDataset({ now: DATA_NOW, seed: 1, maps: 4, players: 6, secretHeavyMaps: 4 }).maps.filter((m) => m.secretThreshold !== undefined)).toHaveLength(4);
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: 3, players: 6, secretHeavyMaps: 1.5 })).toThrow(/secretHeavyMaps must be a whole number/);
  });
});

describe('evolveDataset', () => {
  it('is deterministic for a seed and keeps the dataset valid', () => {
    const a = generateDataset({ now: DATA_NOW, seed: 10, maps: 8, players: 8 });
    const b = structuredClone(a);
    expect(evolveDataset(a, { seed: 3, fraction: 0.25 })).toEqual(evolveDataset(b, { seed: 3, fraction: 0.25 }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(() => parseDataset(JSON.parse(JSON.stringify(a)))).not.toThrow();
  });

  it('changes nothing with fraction 0', () => {
    const a = generateDataset({ now: DATA_NOW, seed: 10, maps: 8, players: 8 });
    const before = JSON.stringify(a);
    expect(evolveDataset(a, { seed: 3, fraction: 0 })).toEqual({ improved: 0, added: 0 });
    expect(JSON.stringify(a)).toBe(before);
  });
});

describe("style 'season': a believable season of the game for the demo (issue 11)", () => {
  const season = generateDataset({ seed: 2026, maps: 24, players: 12, style: 'season', now: SEASON_NOW });
  const isOfficial = (m: DatasetMap): boolean => /^(Winter|Spring|Summer|Fall) \d{4} - \d{2}$/.test(m.name);
  /** What only the hostile style holds: formula starts, markup, quotes and commas, control characters, path tricks. */
  const HOSTILE = /^[=+\-@]|[<>"\r\n]|,|\.\.|\$l\[|\$\$/;

  it('issue 11: is deterministic from the seed, passes its own schema, and another seed gives another season', () => {
    expect(JSON.stringify(generateDataset({ seed: 2026, maps: 24, players: 12, style: 'season', now: SEASON_NOW }))).toBe(JSON.stringify(season));
    expect(JSON.stringify(generateDataset({ seed: 2027, maps: 24, players: 12, style: 'season', now: SEASON_NOW }))).not.toBe(JSON.stringify(season));
    expect(parseDataset(JSON.parse(JSON.stringify(season)))).toEqual(season);
  });

  it('issue 11: official maps are named as Nadeo names them ("Fall 2026 - 01" ...), in order, by Nadeo, played from the campaign\'s release', () => {
    const official = season.maps.filter(isOfficial);
    expect(official.length).toBeGreaterThanOrEqual(12);
    expect(official.map((m) => m.name)).toEqual(official.map((_, i) => `Fall 2026 - ${String(i + 1).padStart(2, '0')}`));
    const nadeo = official[0]?.author ?? '';
    expect(season.displayNames?.[nadeo]).toBe('Nadeo');
    for (const map of official) {
      expect(map).toMatchObject({ author: nadeo, submitter: nadeo, mapType: 'TrackMania\\TM_Race', hasClones: false, filename: `${map.name}.Map.Gbx` });
      // Fall 2026 opened on 1 October at 17:00 Paris time (calendar.ts).
      expect(Date.parse(map.timestamp)).toBeLessThan(Date.parse('2026-10-01T15:00:00+00:00'));
      for (const r of season.records.filter((x) => x.mapId === map.mapId)) expect(Date.parse(r.timestamp)).toBeGreaterThanOrEqual(Date.parse('2026-10-01T15:00:00+00:00'));
    }
    // Later maps of a campaign are longer: 21-25 (black) take longer than 01-05 (white).
    const large = generateDataset({ now: DATA_NOW, seed: 3, maps: 60, players: 2, style: 'season' }).maps.filter(isOfficial);
    const white = large.slice(0, 5).map((m) => m.authorScore);
    const black = large.slice(20, 25).map((m) => m.authorScore);
    expect(Math.max(...white)).toBeLessThan(Math.min(...black));
    expect(large[25]?.name).toBe('Summer 2026 - 01');
  });

  it('issue 11: community maps carry the formatting codes mappers use, and no hostile text anywhere', () => {
    const community = season.maps.filter((m) => !isOfficial(m));
    expect(community.length).toBeGreaterThanOrEqual(5);
    const names = generateDataset({ now: DATA_NOW, seed: 8, maps: 80, players: 12, style: 'season' }).maps.filter((m) => !isOfficial(m)).map((m) => m.name);
    for (const code of ['$i', '$o', '$w', '$s', '$n', '$z', '$fff']) expect(names.some((n) => n.includes(code)), code).toBe(true);
    expect(names.some((n) => /(\$[0-9a-f]{3}\w){4}/.test(n)), 'a name coloured letter by letter').toBe(true);
    expect(names.some((n) => !n.includes('$')), 'a plain name').toBe(true);
    for (const map of season.maps) {
      expect(map.name).not.toMatch(HOSTILE);
      expect(map.filename).toMatch(/^[\w ()-]+\.Map\.Gbx$/);
      expect(map.author).not.toBe('');
    }
    // Replay file names are the service's own form, never a path trick.
    for (const r of season.records) expect(r.filename).toMatch(/^Replays\\Downloaded\\[0-9a-f-]{36}_[0-9a-f-]{36}_\((\d+'\d{2}''\d{2}|\d+pts)\)\.replay\.gbx$/);
  });

  it('issue 16: every player has a distinct plain display name (as the OAuth API gives them); about four in ten a club tag with its codes', () => {
    const many = generateDataset({ now: DATA_NOW, seed: 5, maps: 2, players: 120, style: 'season' });
    const players = [...new Set(many.records.map((r) => r.accountId))];
    const names = Object.entries(many.displayNames ?? {}).filter(([id]) => players.includes(id)).map(([, name]) => name);
    expect(names).toHaveLength(players.length);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z][\w]*$/);
    const tags = Object.entries(many.clubTags ?? {});
    const named = Object.keys(many.displayNames ?? {});
    expect(tags.every(([id]) => named.includes(id))).toBe(true);
    expect(tags.length).toBeGreaterThan(named.length * 0.25);
    expect(tags.length).toBeLessThan(named.length * 0.6);
    // "$f80[TMX]", "$s$0cf[NRG]", "$o$fc0GG": formatting codes, then a short tag.
    for (const [, tag] of tags) expect(tag).toMatch(/^(\$[0-9a-fosiwz]{1,3})+(\[\w+\]|\(\w+\)|\w+)$/);
    for (const [, tag] of tags) expect(tag).not.toMatch(HOSTILE);
  });

  it('issue 16: the hostile style keeps its hostile display names plain too; formatting codes, malformed ones included, are in club tags', () => {
    const hostile = generateDataset({ now: DATA_NOW, seed: 4, maps: 2, players: 30 });
    const names = Object.values(hostile.displayNames ?? {});
    expect(names).toContain('<script>alert(1)</script>');
    expect(names.filter((n) => n.includes('$'))).toEqual([]);
    expect(Object.values(hostile.clubTags ?? {})).toEqual(expect.arrayContaining(['$f00Red$z', '$o$i$w$$$ lone $']));
  });

  it('issue 11 / issue 8: a season has every map kind: Race, clones, Stunt, Platform with respawn medals, a secret threshold hiding a few', () => {
    for (const maps of [5, 6, 24]) {
      const { maps: all, records } = generateDataset({ now: DATA_NOW, seed: maps, maps, players: 12, style: 'season' });
      const race = all.filter((m) => m.mapType === 'TrackMania\\TM_Race');
      expect(race.some((m) => !m.hasClones)).toBe(true);
      expect(race.some((m) => m.hasClones)).toBe(true);
      expect(all.some((m) => m.mapType === 'TrackMania\\TM_Stunt')).toBe(true);
      const platform = all.find(isPlatform);
      expect(platform?.bronzeScore).toBeLessThan(20);
      const secret = all.find((m) => m.secretThreshold !== undefined);
      if (!secret) throw new Error(`no secret threshold with ${maps} maps`);
      const personalBests = records.filter((r) => r.mapId === secret.mapId && r.scopeType === 'PersonalBest');
      const hidden = personalBests.filter((r) => r.recordScore.time < secret.secretThreshold!);
      expect(hidden.length).toBeGreaterThanOrEqual(1);
      expect(hidden.length).toBeLessThan(personalBests.length);
    }
    // The demo's season: the threshold sits at the author time, as Weekly Shorts have it, and hides several entries.
    const secret = season.maps.find((m) => m.secretThreshold !== undefined);
    expect(secret?.secretThreshold).toBe(secret?.authorScore);
  });

  it('issue 11: the default style stays hostile, so tests keep their hostile inputs; an unknown style is refused', () => {
    expect(JSON.stringify(generateDataset({ seed: 4, maps: 8, players: 6, style: 'hostile', now: HOSTILE_NOW }))).toBe(JSON.stringify(generateDataset({ seed: 4, maps: 8, players: 6, now: HOSTILE_NOW })));
    expect(generateDataset({ now: DATA_NOW, seed: 4, maps: 8, players: 6 }).maps.map((m) => m.name)).toContain('=HYPERLINK("http://x","y")');
    expect(() => generateDataset({ now: DATA_NOW, seed: 1, maps: 1, players: 1, style: 'pretty' as 'season' })).toThrow(/style must be 'season' or 'hostile'/);
  });

  it('issue 11: evolve with rivals makes only that many players improve (never an excepted one), each on several maps', () => {
    const dataset = structuredClone(season);
    const me = [...new Set(dataset.records.map((r) => r.accountId))].sort()[0] ?? '';
    const before = new Map(dataset.records.map((r) => [r.mapRecordId, r.accountId]));
    const { improved, added } = evolveDataset(dataset, { seed: 2027, fraction: 0.35, rivals: 3, except: [me] });
    const movers = dataset.records.filter((r) => !before.has(r.mapRecordId)).map((r) => r.accountId);
    expect(improved + added).toBe(movers.length);
    expect(new Set(movers).size).toBe(3);
    expect(movers).not.toContain(me);
    expect(improved).toBeGreaterThanOrEqual(6);
    const again = structuredClone(season);
    expect(evolveDataset(again, { seed: 2027, fraction: 0.35, rivals: 3, except: [me] })).toEqual({ improved, added });
    expect(JSON.stringify(again)).toBe(JSON.stringify(dataset));
    expect(() => evolveDataset(structuredClone(season), { seed: 1, fraction: 0.1, rivals: -1 })).toThrow(/rivals must be a whole number/);
  });

  it('evolve: except keeps an account\'s records as they are even without rivals', () => {
    const dataset = structuredClone(season);
    const me = dataset.records[0]?.accountId ?? '';
    const mine = JSON.stringify(dataset.records.filter((r) => r.accountId === me));
    evolveDataset(dataset, { seed: 9, fraction: 1, except: [me.toUpperCase()] });
    expect(JSON.stringify(dataset.records.filter((r) => r.accountId === me))).toBe(mine);
  });
});
