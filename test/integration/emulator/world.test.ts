// World positions that agree with the emulator's records (issue 16): the top route, the positions route and Core's
// records lookup, asked about the same map, tell one story; the world's best are mostly players nobody here watches.
import { describe, expect, it } from 'vitest';
import { generateDataset, type Dataset, type DatasetMap } from '../../../src-main/emulator/index.ts';
import { isBetterLiveScore, kindOf, liveScoreOf, personalBestGameMode } from '../../../src-main/emulator/rules.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { call, get, recordsUrl, SEASON_NOW, SENTINEL, type WireRecord } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

interface TopEntry {
  accountId: string;
  position: number;
  score: number;
  timestamp: number;
}

// A season (its current campaign's maps declare populations) and a hostile dataset (every kind of map in the campaign).
const season = generateDataset({ seed: 2026, maps: 24, players: 12, style: 'season', now: SEASON_NOW });
const hostile = generateDataset({ now: DATA_NOW, seed: 21, maps: 12, players: 10 });
const seasonEmu = useEmulator({ dataset: season });
const hostileEmu = useEmulator({ dataset: hostile });

async function positionOf(url: string, mapUid: string, score: number): Promise<number> {
  const reply = await call(`${url}/api/token/leaderboard/group/map?scores[${mapUid}]=${score}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ maps: [{ mapUid, groupUid: 'Personal_Best' }] }),
  });
  expect(reply.status).toBe(200);
  return reply.json<{ zones: { ranking: { position: number } }[] }[]>()[0]!.zones[0]!.ranking.position;
}

async function topOf(url: string, mapUid: string, offset: number, length = 100): Promise<TopEntry[]> {
  const reply = await get(`${url}/api/token/leaderboard/group/Personal_Best/map/${mapUid}/top?onlyWorld=true&length=${length}&offset=${offset}`);
  expect(reply.status).toBe(200);
  return reply.json<{ tops: { top: TopEntry[] }[] }>().tops[0]!.top;
}

/** Core's answer for every account of the dataset on the map, in Core's order (the rules' Live score; ties by time set). */
async function coreBoard(url: string, dataset: Dataset, map: DatasetMap): Promise<WireRecord[]> {
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  const reply = await get(recordsUrl(url, { accountIdList: accounts.join(','), mapId: map.mapId, gameMode: personalBestGameMode(map) }));
  expect(reply.status).toBe(200);
  const kind = kindOf(map);
  return reply
    .json<WireRecord[]>()
    .filter((r) => r.recordScore.time !== SENTINEL)
    .sort((a, b) => {
      const [x, y] = [liveScoreOf(kind, a.recordScore), liveScoreOf(kind, b.recordScore)];
      return isBetterLiveScore(kind, x, y) ? -1 : isBetterLiveScore(kind, y, x) ? 1 : a.timestamp.localeCompare(b.timestamp);
    });
}

describe('world positions agree with the records', () => {
  it('the top route, the positions route and Core agree about a campaign map: same order, same positions', async () => {
    const url = seasonEmu().url;
    const map = season.maps.find((m) => m.name === 'Fall 2026 - 03')!;
    expect(map.population).toBeGreaterThan(1000);
    const core = await coreBoard(url, season, map);
    expect(core.length).toBeGreaterThan(5);
    const positions = await Promise.all(core.map((r) => positionOf(url, map.mapUid, r.recordScore.time)));
    // Monotone in score, in Core's order: a strictly better time is strictly ahead, an equal one shares the position.
    for (let i = 1; i < core.length; i++) {
      const same = core[i]!.recordScore.time === core[i - 1]!.recordScore.time;
      if (same) expect(positions[i]).toBe(positions[i - 1]);
      else expect(positions[i]).toBeGreaterThan(positions[i - 1]!);
    }
    // The top route, read page by page, lists the watched players where the positions route puts them, in Core's order.
    const watched = new Map(core.map((r, i) => [r.accountId, positions[i]!]));
    const found: string[] = [];
    let previous = 0;
    for (let offset = 0; offset < 10_000 && found.length < core.length; offset += 100) {
      const page = await topOf(url, map.mapUid, offset);
      if (page.length === 0) break;
      for (const entry of page) {
        expect(entry.position).toBeGreaterThanOrEqual(previous);
        previous = entry.position;
        const position = watched.get(entry.accountId);
        if (position === undefined) continue;
        expect(entry.position).toBe(position);
        found.push(entry.accountId);
      }
    }
    const reachable = core.filter((r) => watched.get(r.accountId)! <= 10_000).map((r) => r.accountId);
    expect(reachable.length).toBeGreaterThan(0);
    expect(found).toEqual(reachable);
  });

  it('every top entry\'s position is the one the positions route gives its score, ties included', async () => {
    const url = seasonEmu().url;
    const map = season.maps.find((m) => m.name === 'Fall 2026 - 01')!;
    const page = await topOf(url, map.mapUid, 0, 40);
    expect(page).toHaveLength(40);
    expect(page.map((e) => e.position)).toEqual(await Promise.all(page.map((e) => positionOf(url, map.mapUid, e.score))));
    expect(page[0]!.position).toBe(1);
  });

  it('looks like a real campaign: the world\'s best are mostly players nobody here watches, and the author time is not world #1', async () => {
    const url = seasonEmu().url;
    const watched = new Set(season.records.map((r) => r.accountId));
    const campaign = season.campaigns![0]!.mapUids.map((uid) => season.maps.find((m) => m.mapUid === uid)!);
    expect(campaign.length).toBeGreaterThan(5);
    let watchedInTops = 0;
    for (const map of campaign.slice(0, 6)) {
      const ten = await topOf(url, map.mapUid, 0, 10);
      watchedInTops += ten.filter((e) => watched.has(e.accountId)).length;
      const author = await positionOf(url, map.mapUid, map.authorScore);
      const gold = await positionOf(url, map.mapUid, map.goldScore);
      expect(author).toBeGreaterThan(10);
      expect(gold).toBeGreaterThan(author);
      expect(await positionOf(url, map.mapUid, map.bronzeScore)).toBeLessThan(map.population! + 100);
    }
    expect(watchedInTops).toBeLessThan(60 * 0.2);
  });

  it('on a Stunt map more points are ahead, on both routes', async () => {
    const url = hostileEmu().url;
    const map = hostile.maps.find((m) => kindOf(m) === 'stunt' && m.population !== undefined)!;
    const ladder = [map.authorScore * 1.1, map.authorScore, map.goldScore, map.bronzeScore].map(Math.round);
    const positions = await Promise.all(ladder.map((score) => positionOf(url, map.mapUid, score)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    const page = await topOf(url, map.mapUid, 0, 100);
    for (let i = 1; i < page.length; i++) expect(page[i]!.score).toBeLessThanOrEqual(page[i - 1]!.score);
  });

  it('the top route reads no further than the first 10,000 entries (top.md)', async () => {
    const url = seasonEmu().url;
    const map = season.maps.find((m) => (m.population ?? 0) > 10_000)!;
    expect(await topOf(url, map.mapUid, 9_990, 100)).toHaveLength(10);
    expect(await topOf(url, map.mapUid, 10_000, 100)).toHaveLength(0);
  });

  it('a secret threshold hides crowd players faster than it too: -1 down to the threshold, then times no faster', async () => {
    const dataset: Dataset = structuredClone(season);
    const map = dataset.maps.find((m) => m.name === 'Fall 2026 - 02')!;
    map.secretThreshold = map.authorScore;
    const emu = await startTestEmulator({ dataset });
    const url = emu.url;
    try {
      const hidden = (await positionOf(url, map.mapUid, map.authorScore)) - 1;
      expect(hidden).toBeGreaterThan(10);
      const page = await topOf(url, map.mapUid, 0, 100);
      const cut = Math.min(hidden, page.length);
      expect(page.slice(0, cut).every((e) => e.score === -1)).toBe(true);
      expect(page.slice(cut).every((e) => e.score >= map.authorScore)).toBe(true);
    } finally {
      await emu.close();
    }
  });

  it('the OAuth API names the crowd players Core knows records of, the WR holder among them, unique and found back by name', async () => {
    const { url, oauthUrl } = seasonEmu();
    const maps = season.maps.filter((m) => (m.population ?? 0) > 0);
    expect(maps.length).toBeGreaterThan(2);
    const holders = await Promise.all(maps.map(async (m) => (await topOf(url, m.mapUid, 0, 1))[0]!.accountId));
    const beyond = (await topOf(url, maps[0]!.mapUid, 100, 1))[0]!.accountId;
    const watched = Object.keys(season.displayNames ?? {}).slice(0, 2);
    const ids = [...holders, ...watched, beyond];
    const names = (await get(`${oauthUrl}/api/display-names?${ids.map((id) => `accountId[]=${id}`).join('&')}`)).json<Record<string, string>>();
    // Every holder has a plain name of its own, apart from the dataset's players'; the 101st of the crowd has none
    // (Core knows no record of theirs), and the dataset's players keep their own.
    for (const id of holders) expect(names[id], id).toMatch(/^[A-Z][a-z]+\d{4}$/);
    expect(new Set(holders.map((id) => names[id]!.toLowerCase())).size).toBe(new Set(holders).size);
    for (const id of watched) expect(names[id]).toBe(season.displayNames![id]);
    expect(names[beyond]).toBeUndefined();
    const datasetNames = new Set(Object.values(season.displayNames ?? {}).map((n) => n.toLowerCase()));
    expect(holders.filter((id) => datasetNames.has(names[id]!.toLowerCase()))).toEqual([]);
    // The name-to-ID route finds a holder by that name, in any case.
    const name = names[holders[0]!]!;
    const found = (await get(`${oauthUrl}/api/display-names/account-ids?displayName[]=${name.toUpperCase()}`)).json<Record<string, string>>();
    expect(found).toEqual({ [name.toUpperCase()]: holders[0] });
  });
});
