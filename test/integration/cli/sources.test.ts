// The command line with what players play: a list made from a campaign (--from), maps by Exchange link, players by
// display name or trackmania.io link (unknown and ambiguous names said plainly), and a sync that says what a source
// gained and the best position change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { stripFormatting } from '../../../src-main/shared/format.ts';
import { cli as trackwatch, type CliResult } from '../../helpers/cli.ts';
import { tempDataDir } from '../../helpers/sync.ts';

const OAUTH = { clientId: 'cli-app', clientSecret: 'cli-secret' };

/** Dates read in UTC, whatever the machine's time zone. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return trackwatch(args, { TZ: 'UTC', ...env });
}

describe('lists from what you play, on the command line', () => {
  // As of mid-November 2026 (the emulator's calendar follows `now`): Fall 2026, November played to the 15th.
  const dataset = generateDataset({ seed: 77, maps: 40, players: 6, style: 'season', now: Date.parse('2026-11-15T20:00:00Z') });
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let base: string[];
  let names: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ dataset, oauth: OAUTH });
    data = await tempDataDir();
    base = ['--data-dir', data.dir, '--api-url', emulator.url, '--max-rps', '500'];
    names = { TRACKWATCH_OAUTH_CLIENT_ID: OAUTH.clientId, TRACKWATCH_OAUTH_CLIENT_SECRET: OAUTH.clientSecret, TRACKWATCH_OAUTH_URL: emulator.url };
  });
  afterAll(async () => {
    await emulator.close();
    await data.remove();
  });

  it('lists create --from campaign:current makes "Fall 2026" of its 25 official maps, and says what to do next', async () => {
    const r = await cli([...base, 'lists', 'create', '--from', 'campaign:current']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('created "Fall 2026" from Fall 2026 (campaign:Fall 2026): 25 maps');
    expect(r.stdout).toContain('next: trackwatch players add <display name or account ID> --list "Fall 2026"');
    const maps = JSON.parse((await cli([...base, 'maps', 'list', '--list', 'Fall 2026', '--json'])).stdout) as { maps: { name: string }[] };
    expect(maps.maps.map((m) => m.name)).toEqual(Array.from({ length: 25 }, (_, i) => `Fall 2026 - ${String(i + 1).padStart(2, '0')}`));
  });

  it('a Track of the Day month under a name of its own; a closed club campaign and an unknown month refused in one line', async () => {
    const totd = await cli([...base, 'lists', 'create', 'November', '--from', 'totd:2026-11']);
    expect(totd.code, totd.stderr).toBe(0);
    expect(totd.stdout).toContain('created "November" from Track of the Day 2026-11 (totd:2026-11): 15 maps');
    expect(totd.stdout).toContain('15 days of 2026-11 not played yet; a later sync adds their maps.');

    const closed = await cli([...base, 'lists', 'create', 'Club', '--from', 'https://trackmania.io/#/campaigns/4242/1702']);
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim()).toMatch(/^trackwatch: Club 4242's campaign 1702 is open to the club's members only: /);
    // In the player's words: no route name, no service code (issue 17 §2.10).
    expect(closed.stderr).not.toMatch(/GET \/|:error-/);
    const unknown = await cli([...base, 'lists', 'create', 'Old', '--from', 'totd:2019-01']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('trackwatch: There is no Track of the Day month 2019-01 (Tracks of the Day began in July 2020).');
    const bad = await cli([...base, 'lists', 'create', 'Bad', '--from', 'season:fall']);
    expect(bad.stderr).toMatch(/^trackwatch: Not a list source: "season:fall" is not a list source; use campaign:current/);
    const lists = JSON.parse((await cli([...base, 'lists', '--json'])).stdout) as { name: string }[];
    expect(lists.map((l) => l.name)).toEqual(['Fall 2026', 'November']);
    expect((await cli([...base, 'lists', 'create'])).stderr).toContain('lists create needs a name, or --from SOURCE');
  });

  it('players add takes display names and trackmania.io links; unknown names are said plainly; names need the OAuth app', async () => {
    const [a, b, c] = Object.keys(dataset.displayNames!).filter((id) => dataset.records.some((r) => r.accountId === id));
    const display = dataset.displayNames![a!]!;
    const r = await cli([...base, 'players', 'add', '--list', 'Fall 2026', display, `https://trackmania.io/#/player/${b}`, 'NoSuchPlayer123'], names);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${stripFormatting(display)} is ${a}`);
    expect(r.stdout).toContain('no player named "NoSuchPlayer123" on Trackmania');
    expect(r.stdout).toContain('added 2 players to "Fall 2026"');
    // Found by a name just now: the list shows that name at once, not an ID prefix until a sync (issue 17 §2.10).
    const d = Object.keys(dataset.displayNames!).find((id) => ![a, b, c].includes(id) && /[A-Z]/.test(dataset.displayNames![id]!))!;
    expect((await cli([...base, 'players', 'add', '--list', 'Fall 2026', dataset.displayNames![d]!.toLowerCase()], names)).code).toBe(0);
    const listed = await cli([...base, 'players', 'list', '--list', 'Fall 2026']);
    const row = (id: string): string => listed.stdout.split('\n').find((l) => l.includes(id))!;
    expect(row(a!).startsWith(`│ ${stripFormatting(display)} `), row(a!)).toBe(true);
    expect(row(d).startsWith(`│ ${dataset.displayNames![d]!.toLowerCase()} `), row(d)).toBe(true);

    const without = await cli([...base, 'players', 'add', '--list', 'Fall 2026', display]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('needs a Trackmania OAuth app');
    expect(without.stderr).toContain('set TRACKWATCH_OAUTH_CLIENT_ID and TRACKWATCH_OAUTH_CLIENT_SECRET');
    // An account ID needs no app and no network.
    const byId = await cli([...base, 'players', 'add', '--list', 'Fall 2026', c!, '--me']);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain('marked as you');
  });

  it('maps add takes an Exchange map link; a sync says the new Track of the Day and the best position', async () => {
    const november = emulator.dataset.trackOfTheDay!.find((m) => m.month === '2026-11')!;
    const [extra, day16] = emulator.dataset.maps.filter((m) => !november.mapUids.includes(m.mapUid));
    const add = await cli([...base, 'maps', 'add', '--list', 'November', `https://trackmania.exchange/maps/${extra!.exchangeId}/Some-Map-Name`]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('added 1 map to "November"');
    const players = [...new Set(dataset.records.map((r) => r.accountId))];
    expect((await cli([...base, 'players', 'add', '--list', 'November', ...players])).code).toBe(0);

    november.mapUids[15] = day16!.mapUid;
    const sync = await cli([...base, 'sync', '--list', 'November', '--no-replays']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^sync ok: 17 maps x \d+ players in .*, 1 new map from Track of the Day 2026-11, [\d,]+ world positions \(\d+ requests?\)/m);
    expect(sync.stdout).toMatch(/^best position: .+ #[\d,]+ in the world on .+$/m);

    const json = JSON.parse((await cli([...base, 'sync', '--list', 'November', '--no-replays', '--json'])).stdout);
    expect(json).toMatchObject({ outcome: 'ok', newMaps: [], positions: { asked: 0, requests: 0 } });

    // compare --json: every visible PB with its world position and when it was asked; no record, no position.
    const compare = JSON.parse((await cli([...base, 'compare', '--list', 'November', '--json'])).stdout) as { entries: { hasRecord: boolean; hidden: boolean; position: number | null; positionAsOf: string | null }[] }[];
    const entries = compare.flatMap((m) => m.entries);
    const visible = entries.filter((e) => e.hasRecord && !e.hidden);
    expect(visible.length).toBeGreaterThan(0);
    for (const e of visible) {
      expect(e.position).toBeGreaterThanOrEqual(1);
      expect(Date.parse(e.positionAsOf!)).toBeGreaterThan(0);
    }
    expect(entries.filter((e) => !e.hasRecord).every((e) => e.position === null && e.positionAsOf === null)).toBe(true);
  });
});
