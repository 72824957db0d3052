// What the command says when a filter, a ref or a list gives nothing, and the names it takes for a player: every
// case a plain line naming what was given, never an empty table, a silent change or "removed 0".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { playerLabel } from '../../../src-main/shared/leaderboard.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { cli } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

/** The one line a refusal prints (exit 1), without the "trackwatch: " prefix. */
async function refusal(args: string[]): Promise<string> {
  const r = await cli(args);
  expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!.replace(/^trackwatch: /, '');
}

describe('plain answers', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 6, players: 4 });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  const [me, second, third, unwatched] = accounts as [string, string, string, string];
  /** Without the OAuth app a player has no display name: the name shown is the start of the account ID. */
  const shown = (accountId: string): string => playerLabel({ accountId });
  const mapUids = dataset.maps.map((m) => m.mapUid);
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let base: string[];
  /** The same data folder with a service that cannot be reached: what reads only must not notice. */
  let offline: string[];

  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
    data = await tempDataDir();
    base = ['--data-dir', data.dir, '--api-url', emulator.url, '--max-rps', '200'];
    offline = ['--data-dir', data.dir, '--api-url', 'http://127.0.0.1:9'];
    for (const args of [['maps', 'add', ...mapUids], ['players', 'add', me, '--name', 'Me', '--me'], ['players', 'add', second, third], ['sync']]) {
      const r = await cli([...base, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });
  afterAll(async () => {
    await emulator.close();
    await data.remove();
  });

  it('history: a range with no PB says so, naming the filters; --since after --until is refused', async () => {
    const none = await cli([...offline, 'history', '--since', '9999-12-31', '--player', 'Me']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('no PB was seen with --player Me --since 9999-12-31; other PBs are stored: widen or drop these filters.\n');
    expect(await refusal([...offline, 'history', '--since', '2027-01-01', '--until', '2026-01-01']))
      .toBe('--since 2027-01-01 is not before --until 2026-01-01: no PB can be in that range; give the earlier date to --since.');
  });

  it('a player is found by the name shown for them; a refusal lists every watched player by that name', async () => {
    const compare = await cli([...offline, 'compare', '--json', '--me', shown(second)]);
    expect(compare.code, compare.stderr).toBe(0);
    const maps = JSON.parse(compare.stdout) as { entries: { accountId: string; isMe: boolean }[] }[];
    expect(maps[0]!.entries.find((e) => e.isMe)?.accountId).toBe(second);
    const records = JSON.parse((await cli([...offline, 'records', '--json', '--player', shown(third)])).stdout) as { accountId: string }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.accountId === third)).toBe(true);

    expect(await refusal([...offline, 'compare', '--me', 'Nobody'])).toBe(
      `no player named "Nobody" (--me takes an account ID, a nickname or a display name of a player of "Default"). Watched players: Me, ${shown(second)}, ${shown(third)}.`,
    );
  });

  it('an account ID of no watched player is refused as a name is', async () => {
    const nobody = '00000000-0000-0000-0000-000000000000';
    expect(await refusal([...offline, 'compare', '--me', nobody])).toMatch(
      new RegExp(`^no player with account ID ${nobody} \\(--me takes .*\\)\\. Watched players: Me, ${shown(second)}, ${shown(third)}\\.$`),
    );
    expect(await refusal([...offline, 'history', '--player', nobody])).toMatch(new RegExp(`^no player with account ID ${nobody} `));
  });

  it('players add: --name names one player only; what it did to the nickname is always said', async () => {
    expect(await refusal([...base, 'players', 'add', second, third, '--name', 'Same']))
      .toBe('--name gives one player a nickname, and 2 were given; add them one by one to name each.');
    const list = JSON.parse((await cli([...offline, 'players', 'list', '--json'])).stdout) as { accountId: string; nickname: string | null }[];
    expect(list.filter((p) => p.nickname === 'Same')).toEqual([]);

    const set = await cli([...base, 'players', 'add', second, '--name', 'Both']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`already in "Default": ${second}\n${second} had no nickname and is now "Both"\n`);
    const again = await cli([...base, 'players', 'add', second, '--name', 'Both']);
    expect(again.stdout).toBe(`already in "Default": ${second}\n${second} already had the nickname "Both"\n`);
    expect((await cli([...base, 'players', 'rename', second, ''])).code).toBe(0);
  });

  it('maps remove and players remove: a ref not in the list is named, an empty one refused', async () => {
    const unknown = 'NotInTheList00000000000000';
    expect(await refusal([...base, 'maps', 'remove', unknown]))
      .toBe(`not in "Default": ${unknown}; nothing was removed (\`trackwatch maps list --list "Default"\` shows its maps).`);
    expect(await refusal([...base, 'maps', 'remove', ''])).toBe('maps remove needs a map: a UID, a map ID or a link.');
    expect(await refusal([...base, 'maps', 'add', ''])).toBe('maps add needs a map: a UID, a map ID or a link.');
    expect(await refusal([...base, 'players', 'remove', ''])).toBe('players remove needs a player: an account ID, a nickname or a display name.');

    const removed = await cli([...base, 'players', 'remove', third]);
    expect(removed.stdout).toBe('removed 1 player from "Default"\n');
    expect(await refusal([...base, 'players', 'remove', third]))
      .toBe(`not in "Default": ${shown(third)}; nothing was removed (\`trackwatch players list --list "Default"\` shows its players).`);
    const some = await cli([...base, 'players', 'remove', third, second]);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toBe(`removed 1 player from "Default"\nnot in "Default": ${shown(third)}\n`);
    expect((await cli([...base, 'players', 'add', second, third])).code).toBe(0);
  });

  it('replays fetch of a replay already stored says so, and asks nothing of the service', async () => {
    const r = await cli([...offline, 'replays', 'fetch', mapUids[0]!, me]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^already stored at ${data.dir}/replays/[0-9a-f-]+/${me}/[0-9a-f-]+\\.replay\\.gbx \\(\\d+ bytes\\); nothing was downloaded\\n$`));
  });

  it('compare says once that a list was never synced, or has no players', async () => {
    // A player no sync has read: no record of theirs is stored.
    for (const args of [['lists', 'create', 'Fresh'], ['maps', 'add', mapUids[0]!, '--list', 'Fresh'], ['players', 'add', unwatched, '--list', 'Fresh'],
      ['lists', 'create', 'No one'], ['maps', 'add', mapUids[0]!, '--list', 'No one']]) {
      expect((await cli([...base, ...args])).code, args.join(' ')).toBe(0);
    }
    expect((await cli([...offline, 'compare', '--list', 'Fresh'])).stdout).toBe('"Fresh" has never been synced: run `trackwatch sync --list "Fresh"`.\n');
    expect((await cli([...offline, 'compare', '--list', 'No one'])).stdout)
      .toBe('"No one" has no players: add some with `trackwatch players add <player> --list "No one"`, then `trackwatch sync --list "No one"`.\n');
    expect((await cli([...offline, 'players', 'list', '--list', 'No one'])).stdout)
      .toBe('"No one" has no players: add some with `trackwatch players add <player> --list "No one"`.\n');
  });

  it('records shows every stored record without --list, whatever lists there are, and takes --list as a filter', async () => {
    const all = JSON.parse((await cli([...offline, 'records', '--json'])).stdout) as { mapRecordId: string }[];
    expect(all.length).toBeGreaterThan(0);
    const table = await cli([...offline, 'records']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(all.length + 1);
    expect((await cli([...offline, 'records', '--list', 'No one'])).stdout).toBe('no stored record matches these filters.\n');

    // The list that holds them deleted: the records are kept, and shown.
    for (const list of ['Default', 'Fresh', 'No one']) expect((await cli([...base, 'lists', 'delete', list])).code).toBe(0);
    const kept = JSON.parse((await cli([...offline, 'records', '--json'])).stdout) as { mapRecordId: string }[];
    expect(kept.map((r) => r.mapRecordId).sort()).toEqual(all.map((r) => r.mapRecordId).sort());
    expect((await cli([...offline, 'players', 'list'])).stdout).toBe('no players watched yet: add some with `trackwatch players add <player>`.\n');
  });
});
