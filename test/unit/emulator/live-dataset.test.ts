import { describe, expect, it } from 'vitest';
import { DatasetError, generateDataset, parseDataset, type Dataset } from '../../../src-main/emulator/index.ts';
import { HOSTILE_NOW, SEASON_NOW } from '../../integration/emulator/support.ts';

function issuesOf(change: (d: Dataset) => void): string[] {
  const d = structuredClone(generateDataset({ seed: 5, maps: 30, players: 4, now: HOSTILE_NOW }));
  change(d);
  try {
    parseDataset(JSON.parse(JSON.stringify(d)));
    return [];
  } catch (e) {
    if (e instanceof DatasetError) return e.issues;
    throw e;
  }
}

describe('dataset: Live and Exchange fields', () => {
  it('a generated dataset fills them deterministically: 25-map current campaign, TOTD months, club campaigns, packs', () => {
    const a = generateDataset({ seed: 5, maps: 30, players: 4, now: HOSTILE_NOW });
    expect(JSON.stringify(a)).toBe(JSON.stringify(generateDataset({ seed: 5, maps: 30, players: 4, now: HOSTILE_NOW })));
    expect(parseDataset(JSON.parse(JSON.stringify(a)))).toEqual(a);
    const current = [...a.campaigns!].sort((x, y) => y.start.localeCompare(x.start))[0]!;
    expect(current.mapUids).toEqual(a.maps.slice(0, 25).map((m) => m.mapUid));
    expect(a.campaigns!.length).toBeGreaterThanOrEqual(2);
    expect(a.trackOfTheDay!.some((m) => m.mapUids.includes(''))).toBe(true);
    expect(a.clubCampaigns!.some((c) => c.membersOnly)).toBe(true);
    expect(new Set(a.maps.map((m) => m.exchangeId)).size).toBe(30);
    expect(a.maps.slice(0, 25).every((m) => (m.population ?? 0) > 4)).toBe(true);
    expect(a.maps.slice(25).every((m) => m.population === undefined)).toBe(true);
    // No maps, nothing to build them from.
    expect(generateDataset({ seed: 5, maps: 0, players: 4, now: HOSTILE_NOW }).campaigns).toBeUndefined();
  });

  it('refuses fields that name maps the dataset does not have, wrong month lengths and repeated IDs', () => {
    expect(issuesOf((d) => (d.campaigns![0]!.mapUids[0] = 'NotAMapOfTheDataset'))).toEqual(['campaigns[0].mapUids[0]: names no map of the dataset']);
    expect(issuesOf((d) => d.trackOfTheDay![0]!.mapUids.pop())[0]).toContain("must list the 30 days of 2026-04 ('' for a day not yet played)");
    expect(issuesOf((d) => (d.maps[1]!.exchangeId = d.maps[0]!.exchangeId))).toContain('maps[1].exchangeId: repeats maps[0].exchangeId');
    expect(issuesOf((d) => d.exchangePacks![0]!.exchangeIds.push(7))).toEqual([expect.stringContaining('exchangePacks[0].exchangeIds[10]: names no map')]);
    expect(issuesOf((d) => d.clubCampaigns!.push({ ...d.clubCampaigns![0]! }))).toEqual(['clubCampaigns[2]: repeats clubCampaigns[0]']);
    expect(issuesOf((d) => (d.maps[0]!.population = 0))[0]).toContain('maps[0].population');
  });

  it("a season's current campaign is the one its official maps are named after, in their order; its TOTD the season's months", () => {
    const season = generateDataset({ seed: 9, maps: 40, players: 4, style: 'season', now: SEASON_NOW });
    expect(parseDataset(JSON.parse(JSON.stringify(season)))).toEqual(season);
    const byUid = new Map(season.maps.map((m) => [m.mapUid, m]));
    const [current, ...earlier] = [...season.campaigns!].sort((x, y) => y.start.localeCompare(x.start));
    expect(current!.name).toBe('Fall 2026');
    expect(current!.mapUids.map((u) => byUid.get(u)!.name)).toEqual(Array.from({ length: 25 }, (_, i) => `Fall 2026 - ${String(i + 1).padStart(2, '0')}`));
    expect(current!.mapUids.every((u) => (byUid.get(u)!.population ?? 0) > 4)).toBe(true);
    expect(earlier.map((c) => c.name)).toEqual(['Summer 2026', 'Spring 2026']);
    // A campaign with no official maps in the dataset is played on community maps, never on another season's.
    for (const c of earlier) expect(c.mapUids.filter((u) => / - \d\d$/.test(byUid.get(u)!.name))).toEqual([]);
    expect(Date.parse(current!.start)).toBeLessThan(Date.parse('2026-11-15T20:00:00Z'));
    expect(season.trackOfTheDay!.map((m) => [m.month, m.mapUids.filter((u) => u !== '').length])).toEqual([['2026-10', 31], ['2026-11', 15]]);
  });
});
