// `trackwatch replays inspect FILE... [--json]` as a user runs it: the ghost the game wrote, the files the emulator
// serves, and files that cannot be read; no data folder, no network.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, mapLayout, replayBytesFor, replayDamageOf, replayKindOf } from '../../../src-main/emulator/index.ts';
import { cli } from '../../helpers/cli.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/gbx/tm2020-001.Ghost.Gbx');

describe('trackwatch replays inspect', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 21, maps: 10, players: 5, style: 'season' });
  const readable = dataset.records.filter((r) => replayDamageOf(r) === undefined && r.scopeType === 'PersonalBest');
  const kindOf = (mapId: string) => dataset.maps.find((m) => m.mapId === mapId)!.mapType;
  const picked = [
    readable.find((r) => replayKindOf(r) === 'ghost' && kindOf(r.mapId).endsWith('TM_Race'))!,
    readable.find((r) => replayKindOf(r) === 'replay')!,
    readable.find((r) => kindOf(r.mapId).endsWith('TM_Stunt'))!,
    readable.find((r) => kindOf(r.mapId).endsWith('TM_Platform'))!,
  ];
  let folder: { dir: string; remove: () => Promise<void> };
  const files: string[] = [];
  // The command gets a data folder that does not exist, and must leave it so.
  let dataDir: string;

  beforeAll(async () => {
    folder = await tempDataDir('trackwatch-inspect-');
    dataDir = join(folder.dir, 'no-data-folder');
    for (const [i, record] of picked.entries()) {
      const file = join(folder.dir, `${i}_${record.mapRecordId}.${replayKindOf(record) === 'replay' ? 'Replay' : 'Ghost'}.Gbx`);
      await writeFile(file, replayBytesFor(record, dataset));
      files.push(file);
    }
  });
  afterAll(async () => folder.remove());

  const inspect = (...args: string[]) => cli(['--data-dir', dataDir, '--api-url', 'http://127.0.0.1:9', 'replays', 'inspect', ...args]);

  it('--json: the real ghost, exactly', async () => {
    const r = await inspect(FIXTURE, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      files: [{
        file: FIXTURE,
        class: 'ghost',
        mapUid: 'AJFJd6yABuSMfgJGc8UpWRwUVa0',
        laps: null,
        ghosts: [{ name: 'WinterlyTM', raceTime: 10_782, respawns: null, stuntScore: 0, checkpoints: [10_782], checkpointStuntScores: [0] }],
      }],
    });
  });

  it('--json: the emulator\'s ghosts and replays agree with their records, on every kind of map', async () => {
    const r = await inspect(...files, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { files: { file: string; class: string; mapUid: string; laps: number | null; ghosts: { name: string; raceTime: number; respawns: number | null; stuntScore: number; checkpoints: number[]; checkpointStuntScores: number[] }[] }[] };
    expect(out.files.map((f) => f.file)).toEqual(files);
    for (const [i, record] of picked.entries()) {
      const map = dataset.maps.find((m) => m.mapId === record.mapId)!;
      const file = out.files[i]!;
      expect(file.class).toBe(replayKindOf(record));
      expect(file.mapUid).toBe(map.mapUid);
      // A replay's embedded map says its laps; a ghost file holds no map.
      expect(file.laps).toBe(replayKindOf(record) === 'replay' ? mapLayout(map).laps : null);
      expect(Object.keys(file.ghosts[0]!)).toEqual(['name', 'raceTime', 'respawns', 'stuntScore', 'checkpoints', 'checkpointStuntScores']);
      const ghost = file.ghosts[0]!;
      expect(ghost.raceTime).toBe(record.recordScore.time);
      expect(ghost.checkpoints).toHaveLength(mapLayout(map).checkpointsPerLap * mapLayout(map).laps);
      expect(ghost.checkpoints.at(-1)).toBe(record.recordScore.time);
      if (map.mapType.endsWith('TM_Stunt')) expect(ghost.checkpointStuntScores.at(-1)).toBe(record.recordScore.score);
      if (map.mapType.endsWith('TM_Platform')) expect(ghost.respawns).toBe(record.recordScore.respawnCount === 0xffffffff ? null : record.recordScore.respawnCount);
    }
    await expect(access(dataDir)).rejects.toThrow();
  });

  it('reads as a table: the driver, m:ss.mmm times and the sector between checkpoints', async () => {
    const r = await inspect(FIXTURE, files[0]!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${FIXTURE}: ghost, map AJFJd6yABuSMfgJGc8UpWRwUVa0`);
    expect(r.stdout).toMatch(/WinterlyTM {2}0:10\.782 {2}respawns - {2}1 checkpoint\n/);
    expect(r.stdout).toMatch(/CP +time +sector/);
    expect(r.stdout).toMatch(/ 1 +0:10\.782 +0:10\.782/);
    // The emulator ghost: its second checkpoint's sector is the difference of the first two times.
    const json = JSON.parse((await inspect(files[0]!, '--json')).stdout) as { files: { ghosts: { checkpoints: number[] }[] }[] };
    const [first, second] = json.files[0]!.ghosts[0]!.checkpoints;
    const clock = (ms: number) => `${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
    expect(r.stdout).toMatch(new RegExp(` 2 +${clock(second!).replace('.', '\\.')} +${clock(second! - first!).replace('.', '\\.')}`));
    // A replay says its map's laps on its first line.
    const { laps } = mapLayout(dataset.maps.find((m) => m.mapId === picked[1]!.mapId)!);
    const replay = await inspect(files[1]!);
    expect(replay.stdout).toMatch(new RegExp(`: replay of 1 ghost, map \\S+, ${laps === 1 ? 'not a lap race' : `${laps} laps`}\n`));
  });

  it('says each file it cannot read in one line on stderr, prints the others, and exits 65', async () => {
    const bad = join(folder.dir, 'bad');
    await mkdir(bad, { recursive: true });
    const notGbx = join(bad, 'notes.Replay.Gbx');
    const empty = join(bad, 'empty.Ghost.Gbx');
    const damaged = join(bad, 'damaged.Ghost.Gbx');
    await writeFile(notGbx, 'just some text renamed .gbx');
    await writeFile(empty, '');
    const whole = replayBytesFor(picked[0]!, dataset);
    await writeFile(damaged, whole.subarray(0, whole.length >> 1));
    const missing = join(bad, 'missing.Ghost.Gbx');
    const r = await inspect(notGbx, FIXTURE, empty, missing, damaged, bad, '--json');
    expect(r.code).toBe(65);
    expect(JSON.parse(r.stdout).files.map((f: { file: string }) => f.file)).toEqual([FIXTURE]);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      `trackwatch: ${notGbx}: not a Gbx file (it does not start with "GBX"); pick a .Ghost.Gbx or .Replay.Gbx file`,
      `trackwatch: ${empty}: the file is empty (0 bytes); pick a .Ghost.Gbx or .Replay.Gbx file`,
      `trackwatch: ${missing}: no such file`,
      expect.stringMatching(new RegExp(`^trackwatch: ${damaged.replace(/[.]/g, '\\.')}: the file ends early: .*; the file is incomplete; download or save it again$`)),
      `trackwatch: ${bad}: is a folder, not a file`,
    ]);
  });
});
