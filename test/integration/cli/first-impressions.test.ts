// What a new player meets first on the command line (issue 17 §2): lists made only on purpose, commands that find
// the only list, maps named by their name, records in leaderboard order.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { cli, useEmulatorAndDataDir } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

/** Each command is a process of its own, several per test, on a loaded 2-core machine. */
const SLOW = 240_000;

describe('first impressions on the command line', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 17, maps: 6, players: 4 });
  // Two maps of one name: a name that cannot tell them apart lists both.
  dataset.maps[4]!.name = 'Twin Peaks';
  dataset.maps[5]!.name = '$o$f00Twin Peaks';
  dataset.maps[0]!.name = 'Lagoon Loop';
  const { at } = useEmulatorAndDataDir(dataset, ['--max-rps', '200']);
  const uids = dataset.maps.map((m) => m.mapUid);
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))].sort();

  it('a list named by mistake is not made: the near name is suggested, and a script must ask with --create', async () => {
    const first = await cli(at('maps', 'add', uids[0]!, '--list', 'Community'));
    // A script (no terminal) names a new list only with --create.
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('there is no list "Community"; to make it, run `trackwatch maps add` with --create.');
    const made = await cli(at('maps', 'add', uids[0]!, '--list', 'Community', '--create'));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('created list "Community"');

    const typo = await cli(at('maps', 'add', uids[1]!, '--list', 'Comunity'));
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('there is no list "Comunity"; did you mean "Community"?');
    const lists = JSON.parse((await cli(at('lists', '--json'))).stdout) as { name: string; maps: number }[];
    expect(lists.map((l) => l.name)).toEqual(['Community']);

    // With no --list, the only list there is: nothing named "Default" appears.
    const again = await cli(at('maps', 'add', uids[1]!));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('added 1 map to "Community"');
    expect(again.stdout).not.toContain('created');
  }, SLOW);

  it('the first add with no list makes "Default" and says so', async () => {
    const r = await cli(at('maps', 'add', uids[0]!));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('created list "Default"');
    const second = await cli(at('maps', 'add', uids[1]!));
    expect(second.stdout).not.toContain('created');
    // Maps and no players: the sync says why it read no records, and what to do.
    const sync = await cli(at('sync'));
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain('no players are watched, so no records were read: add some with `trackwatch players add <player>`, then sync again.');
    // Every column of `players list` has a header: "you" marks your own account.
    expect((await cli(at('players', 'add', accounts[0]!, '--me'))).code).toBe(0);
    const players = await cli(at('players', 'list'));
    expect(players.stdout.split('\n')[1]).toMatch(/│ name +│ nickname +│ account ID +│ you │/);
  }, SLOW);

  it('replays policy and the removes work on the only list, as compare does', async () => {
    expect((await cli(at('maps', 'add', ...uids, '--list', 'Demo', '--create'))).code).toBe(0);
    expect((await cli(at('players', 'add', ...accounts.slice(0, 3), '--list', 'Demo'))).code).toBe(0);
    const policy = await cli(at('replays', 'policy'));
    expect(policy.code, policy.stderr).toBe(0);
    expect(policy.stdout).toContain('syncs of "Demo" download');
    const removed = await cli(at('players', 'remove', accounts[2]!));
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('removed 1 player from "Demo"');
    // Two lists and neither "Default": the player names one.
    expect((await cli(at('lists', 'create', 'Other'))).code).toBe(0);
    const which = await cli(at('replays', 'policy'));
    expect(which.code).toBe(1);
    expect(which.stderr).toContain('there are several lists ("Demo", "Other"): name one with --list.');
  }, SLOW);

  it('maps are named by their name: any case, formatting ignored, the candidates when several share it', async () => {
    expect((await cli(at('maps', 'add', ...uids))).code).toBe(0);
    expect((await cli(at('players', 'add', ...accounts))).code).toBe(0);
    // With world records (on by default): their holders' records are stored but are no watched player's, so they
    // stay out of 'records', 'history' and the leaderboard order checked below.
    expect((await cli(at('sync'))).code).toBe(0);
    const byName = await cli(at('history', '--map', 'lagoon loop', '--json'));
    expect(byName.code, byName.stderr).toBe(0);
    const byUid = await cli(at('history', '--map', uids[0]!, '--json'));
    expect(JSON.parse(byName.stdout)).toEqual(JSON.parse(byUid.stdout));
    expect(JSON.parse(byName.stdout).length).toBeGreaterThan(0);

    const twins = await cli(at('records', '--map', 'Twin Peaks'));
    expect(twins.code).toBe(1);
    expect(twins.stderr).toContain(`"Twin Peaks" names 2 stored maps: Twin Peaks (${uids[4]}), Twin Peaks (${uids[5]}). Give --map one of their UIDs.`);
    const near = await cli(at('records', '--map', 'Lagon Loop'));
    expect(near.code).toBe(1);
    expect(near.stderr).toContain(`did you mean Lagoon Loop (${uids[0]})?`);

    // Records of one map come in leaderboard order (compare's), without the scope every row shared.
    const records = await cli(at('records', '--map', 'Lagoon Loop'));
    expect(records.code, records.stderr).toBe(0);
    expect(records.stdout).not.toContain('PersonalBest');
    const compared = (JSON.parse((await cli(at('compare', '--json'))).stdout) as { mapUid: string; entries: { name: string; hasRecord: boolean }[] }[])
      .find((m) => m.mapUid === uids[0])!.entries.filter((e) => e.hasRecord).map((e) => e.name);
    expect(compared.length).toBeGreaterThan(1);
    const rows = records.stdout.trimEnd().split('\n').slice(1).map((l) => compared.find((name) => l.includes(` ${name} `)));
    expect(rows).toEqual(compared);
  }, SLOW);
});
