// The command line takes a player's name wherever it takes an account ID, and reads like the window: formatted
// medals, local dates, plurals, a sync's outcome in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTrackwatch } from '../../../src-main/core/trackwatch.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { formatScore, formatTime, stripFormatting } from '../../../src-main/shared/format.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { cli as trackwatch } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

/** Dates in the listings are local: read in UTC, they do not depend on the machine. */
const cli = (args: string[]) => trackwatch(args, { TZ: 'UTC' });

describe('players by name, and readable listings', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 2026, maps: 8, players: 12 });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))].sort();
  // The OAuth API's names are plain (issue 16); one with formatting codes checks that codes are ignored all the same.
  const formatted = accounts.slice(2).find((id) => /^\w+$/.test(dataset.displayNames?.[id] ?? ''))!;
  dataset.displayNames![formatted] = `$o$f80${dataset.displayNames![formatted]}`;
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let base: string[];
  /** A player with a display name and no nickname: found by the display name, any case. */
  let named: { accountId: string; displayName: string };

  beforeAll(async () => {
    emulator = await startEmulator({ dataset, oauth: { clientId: 'id', clientSecret: 'secret' } });
    data = await tempDataDir();
    base = ['--data-dir', data.dir, '--api-url', emulator.url, '--max-rps', '200'];
    expect((await cli([...base, 'maps', 'add', ...dataset.maps.map((m) => m.mapUid)])).code).toBe(0);
    expect((await cli([...base, 'players', 'add', accounts[0]!, '--name', 'Me', '--me'])).code).toBe(0);
    expect((await cli([...base, 'players', 'add', accounts[1]!, '--name', 'Rival'])).code).toBe(0);
    expect((await cli([...base, 'players', 'add', ...accounts.slice(2)])).code).toBe(0);
    // Display names come from the OAuth API: a sync with the app configured fetches them.
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 200, oauth: { clientId: 'id', clientSecret: 'secret', baseUrl: emulator.url } });
    try {
      expect((await tw.sync()).outcome).toBe('ok');
      const player = tw.store.players.list().find((p) => !p.nickname && p.displayName && /^[\w ]+$/.test(stripFormatting(p.displayName)) && p.displayName !== stripFormatting(p.displayName));
      named = { accountId: player!.accountId, displayName: player!.displayName! };
    } finally {
      await tw.close();
    }
  });
  afterAll(async () => {
    await emulator.close();
    await data.remove();
  });

  it('history, records and compare take a nickname or a display name in any case, formatting codes ignored', async () => {
    const shown = stripFormatting(named.displayName);
    const byId = await cli([...base, 'records', '--player', named.accountId, '--json']);
    const byName = await cli([...base, 'records', '--player', shown.toUpperCase(), '--json']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout)).toEqual(JSON.parse(byId.stdout));
    expect(JSON.parse(byName.stdout).length).toBeGreaterThan(0);

    const me = await cli([...base, 'records', '--player', 'me', '--json']);
    expect(JSON.parse(me.stdout).every((r: { accountId: string }) => r.accountId === accounts[0])).toBe(true);
    expect(JSON.parse(me.stdout).length).toBeGreaterThan(0);

    const history = await cli([...base, 'history', '--player', 'rival', '--json']);
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(history.stdout).every((h: { accountId: string }) => h.accountId === accounts[1])).toBe(true);

    const compare = await cli([...base, 'compare', '--me', 'Rival', '--json']);
    expect(compare.code, compare.stderr).toBe(0);
    const first = JSON.parse(compare.stdout)[0] as { entries: { accountId: string; isMe: boolean }[] };
    expect(first.entries.find((e) => e.isMe)?.accountId).toBe(accounts[1]);
  });

  it('says "no player named …" and refuses, for every flag that takes a player', async () => {
    for (const args of [['records', '--player', 'Nobody'], ['history', '--player', 'Nobody'], ['compare', '--me', 'Nobody'], ['players', 'remove', 'Nobody']]) {
      const r = await cli([...base, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain('no player named "Nobody"');
      expect(r.stderr).toContain('Rival');
      // Every watched player by the name shown for them, the first 10 and how many more.
      expect(r.stderr).toContain('and 2 more (`trackwatch players list');
    }
  });

  it('says which players a shared name means', async () => {
    expect((await cli([...base, 'players', 'rename', accounts[2]!, 'Twin'])).code).toBe(0);
    expect((await cli([...base, 'players', 'rename', accounts[3]!, 'twin'])).code).toBe(0);
    const r = await cli([...base, 'history', '--player', 'TWIN']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"TWIN" names 2 players');
    expect(r.stderr).toContain(accounts[2]!);
    expect(r.stderr).toContain(accounts[3]!);
  });

  it('adding a watched player again keeps their nickname and says so', async () => {
    const r = await cli([...base, 'players', 'add', accounts[1]!, '--name', 'Someone Else']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${accounts[1]} keeps the nickname "Rival" (not "Someone Else")`);
    const list = await cli([...base, 'players', 'list', '--json']);
    expect(JSON.parse(list.stdout).find((p: { accountId: string }) => p.accountId === accounts[1]).nickname).toBe('Rival');
  });

  it('maps list shows medals in each map\'s unit: times, Stunt points, Platform respawns', async () => {
    const r = await cli([...base, 'maps', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const race = dataset.maps.find((m) => m.mapType.endsWith('TM_Race'))!;
    const stunt = dataset.maps.find((m) => m.mapType.endsWith('TM_Stunt'))!;
    const platform = dataset.maps.find((m) => m.mapType.endsWith('TM_Platform'))!;
    expect(r.stdout).toContain(formatTime(race.authorScore));
    expect(r.stdout).toContain(`${formatScore(stunt.authorScore)} pts`);
    expect(r.stdout).toMatch(new RegExp(`│ ${platform.authorScore.toLocaleString('en-US')} respawns? `));
    expect(r.stdout).not.toContain('author time');
    expect(r.stdout).not.toMatch(new RegExp(`│ ${race.authorScore} `));
  });

  it('lists show local readable dates, plurals and the sync\'s outcome', async () => {
    const r = await cli([...base, 'lists']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('8 maps');
    expect(r.stdout).toContain(`${accounts.length} players`);
    expect(r.stdout).toMatch(/synced \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    expect(r.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
