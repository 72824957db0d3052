// The world record beside the list (issue 15 part 4): `compare --json` gives each map's `worldRecord` and each entry's
// `deltaToWorldRecord` (shared/leaderboard.ts deltaOf), the window's compare grid the same, the terminal table a WR
// line and a "to WR" column; a secret WR is said, never guessed. The WRs are written straight into the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJsonMap } from '../../../src-main/cli/commands/read.ts';
import { DATABASE_FILE_NAME } from '../../../src-main/core/paths.ts';
import { openStore } from '../../../src-main/core/store/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { LIST, MAPS, writeLeaderboardData } from '../../helpers/leaderboard-data.ts';
import { cli } from '../../helpers/cli.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';

const HOLDER = 'abcdef01-0000-4000-8000-000000000001';
const SECRET_HOLDER = 'abcdef01-0000-4000-8000-000000000002';
let dataDir: string;
let service: TrackwatchService;
const { call } = serviceCaller(() => service);
let json: CompareJsonMap[];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tw-wr-'));
  writeLeaderboardData(dataDir);
  const store = openStore({ file: join(dataDir, DATABASE_FILE_NAME), dataDir });
  try {
    const readAt = '2026-11-20T10:00:00.000Z';
    store.worldRecords.save([
      { mapId: MAPS.race.mapId, accountId: HOLDER, score: 40_000, setAt: '2026-03-01T12:00:00.000Z', readAt },
      { mapId: MAPS.secret.mapId, accountId: SECRET_HOLDER, score: null, setAt: null, readAt },
      { mapId: MAPS.stunt.mapId, accountId: HOLDER, score: 9000, setAt: null, readAt },
    ]);
  } finally {
    store.close();
  }
  service = await TrackwatchService.open({ dataDir, host: testHost(), apiUrl: 'http://127.0.0.1:9' });
  const r = await cli(['--data-dir', dataDir, 'compare', '--json']);
  expect(r.code, r.stderr).toBe(0);
  json = JSON.parse(r.stdout) as CompareJsonMap[];
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const byUid = (uid: string): CompareJsonMap => json.find((m) => m.mapUid === uid)!;

describe('compare --json: worldRecord and deltaToWorldRecord', () => {
  it('a visible WR: who and the result, and each visible entry\'s gap to it in the map\'s unit', () => {
    const race = byUid(MAPS.race.mapUid);
    expect(race.worldRecord).toEqual({
      accountId: HOLDER, name: HOLDER.slice(0, 8), secret: false, time: 40_000, score: null, setAt: '2026-03-01T12:00:00.000Z',
      readAt: '2026-11-20T10:00:00.000Z', mapRecordId: null,
    });
    const visible = race.entries.filter((e) => e.hasRecord && !e.hidden);
    expect(visible.length).toBeGreaterThan(1);
    for (const e of visible) expect(e.deltaToWorldRecord, e.name).toEqual({ unit: 'time', value: e.time! - 40_000, time: null });
    for (const e of race.entries.filter((x) => !x.hasRecord)) expect(e.deltaToWorldRecord).toBeNull();

    const stunt = byUid(MAPS.stunt.mapUid);
    expect(stunt.worldRecord).toMatchObject({ time: null, score: 9000, secret: false });
    const mine = stunt.entries.find((e) => e.name === 'Me')!;
    expect(mine.deltaToWorldRecord).toEqual({ unit: 'points', value: mine.score! - 9000, time: null });
    // A secret entry has no result to compare.
    expect(stunt.entries.find((e) => e.hidden)).toMatchObject({ hidden: true, deltaToWorldRecord: null });
  });

  it('a secret WR is said as secret with its holder, never a time, and gives no gap', () => {
    const secret = byUid(MAPS.secret.mapUid);
    expect(secret.worldRecord).toMatchObject({ accountId: SECRET_HOLDER, secret: true, time: null, score: null });
    expect(secret.entries.every((e) => e.deltaToWorldRecord === null)).toBe(true);
  });

  it('a map without a WR read says null', () => {
    expect(byUid(MAPS.platform.mapUid).worldRecord).toBeNull();
    expect(byUid(MAPS.platform.mapUid).entries.every((e) => e.deltaToWorldRecord === null)).toBe(true);
  });

  it("the window's compare grid carries the same WR and gaps", async () => {
    const table = await call('compare.get', { list: LIST });
    table.rows.forEach((row, i) => {
      const m = json[i]!;
      expect(row.worldRecord ?? null, m.name).toEqual(m.worldRecord);
      table.players.forEach((player, column) => {
        const entry = m.entries.find((e) => e.accountId === player.accountId)!;
        expect(row.cells[column]?.deltaToWorldRecord ?? null, `${m.name} ${entry.name}`).toEqual(entry.deltaToWorldRecord);
      });
    });
  });
});

describe('trackwatch compare on a terminal', () => {
  it('a WR line per map that has one and a "to WR" column where it is visible', async () => {
    const r = await cli(['--data-dir', dataDir, 'compare']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`world record 0:40.000 by ${HOLDER.slice(0, 8)} (2026-03-01)`);
    expect(r.stdout).toContain(`world record: secret (held by ${SECRET_HOLDER.slice(0, 8)}; the service hides its time)`);
    expect(r.stdout).toContain('world record 9,000 pts');
    expect(r.stdout.split('\n').filter((l) => /\bto WR\b/.test(l))).toHaveLength(2);
  });

  it('lists world-record shows and sets the list\'s setting', async () => {
    const shown = await cli(['--data-dir', dataDir, 'lists', 'world-record', '--list', LIST, '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({ list: LIST, worldRecord: { set: null, on: true } });
    const off = await cli(['--data-dir', dataDir, 'lists', 'world-record', 'off', '--list', LIST]);
    expect(off.stdout.trim()).toBe(`syncs of "${LIST}" do not read world records`);
    const bad = await cli(['--data-dir', dataDir, 'lists', 'world-record', 'maybe', '--list', LIST]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('the world-record setting is "on", "off" or "default", got "maybe".');
    await cli(['--data-dir', dataDir, 'lists', 'world-record', 'default', '--list', LIST]);
  });
});
