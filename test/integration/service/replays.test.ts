// The window's replay commands over real SQLite and the demo's emulator (issue 9 §1-2): a list's replay policy, the
// sync's cost before it starts, a replay fetched on demand, "Copy to game" copying the replay the player picked (an
// older archived one stays itself), and a stored replay checked against its sha256 before it is copied.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../src-main/contract/index.ts';
import { replayBytesFor } from '../../../src-main/emulator/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { mapKind } from '../../../src-main/shared/leaderboard.ts';
import { eventLog, serviceCaller, testHost, type EventLog } from '../../helpers/service.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tw-service-replays-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (bytes: Buffer | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe("the window's replay commands", () => {
  let service: TrackwatchService;
  const gameFolder = path.join(root, 'game-replays');

  const { call, fail: failure } = serviceCaller(() => service);
  let log: EventLog;
  async function syncDemo(): Promise<EventPayload<'sync.finished'>> {
    const before = log.events('sync.finished').length;
    await call('sync.start', { list: 'Demo' });
    return log.nth('sync.finished', before + 1);
  }

  beforeAll(async () => {
    service = await TrackwatchService.open({ dataDir: path.join(root, 'data'), host: testHost(), demo: { maps: 6, players: 5, maxRps: 500 } });
    log = eventLog(service);
    await call('setup.startDemo', {});
    mkdirSync(gameFolder);
    await call('settings.update', { replayFolder: gameFolder });
  });
  afterAll(() => service.close());

  it("a list's replay policy: 'all' by default, set to 'none', checked", async () => {
    expect(await call('replays.policy', { list: 'Demo' })).toEqual({ mode: 'all', best: 3 });
    expect(await call('replays.setPolicy', { list: 'Demo', policy: { mode: 'none' } })).toEqual({ mode: 'none', best: 3 });
    expect(await failure('replays.setPolicy', { list: 'Demo', policy: { mode: 'best', best: 0 } })).toMatchObject({ code: 'invalid_input' });
  });

  it('says what a sync will cost before it starts; with the policy none, no replay downloads', async () => {
    const plan = await call('sync.plan', { list: 'Demo' });
    expect(plan).toMatchObject({ firstSync: true, large: false, recordRequests: 6, replayDownloads: 0, positionRequests: 5 });
    expect(plan.line).toBe('about 6 record requests, 0 replay downloads, 5 position requests and 6 world record requests, under a minute at 500 requests/s');
    expect(await syncDemo()).toMatchObject({ outcome: 'ok', replays: 0 });
    expect((await call('replays.list', {})).replays).toEqual([]);
  });

  it('fetches one replay on demand from the map view', async () => {
    const demo = service.demo!;
    const store = service.active.store;
    const record = store.records.forList('Demo').find((r) => !r.hidden && r.scope === 'PersonalBest')!;
    const fetched = await call('replays.fetch', { mapUid: record.mapUid, accountId: record.accountId });
    expect(fetched.state).toBe('downloaded');
    const truth = demo.emulator.dataset.records.find((r) => r.mapRecordId === record.mapRecordId)!;
    expect(sha(readFileSync(fetched.file!))).toBe(sha(replayBytesFor(truth, demo.emulator.dataset)));
    const hidden = store.records.forList('Demo').find((r) => r.hidden);
    if (hidden) {
      expect(await failure('replays.fetch', { mapUid: hidden.mapUid, accountId: hidden.accountId })).toMatchObject({ code: 'conflict', message: expect.stringMatching(/secret threshold/) });
    }
  });

  it('"Copy to game" into a chosen folder that does not exist copies nothing and creates nothing', async () => {
    const missing = path.join(root, 'no-such-game', 'Replays');
    await call('settings.update', { replayFolder: missing });
    try {
      const entry = (await call('replays.list', {})).replays[0];
      expect(entry, 'a replay is stored').toBeDefined();
      const error = await failure('replays.copyToGame', { mapUid: entry!.mapUid, accountId: entry!.accountId });
      expect(error.message).toBe(`The game's replay folder ${missing} does not exist; nothing was copied. Check the folder in Settings.`);
      expect(existsSync(path.join(root, 'no-such-game'))).toBe(false);
    } finally {
      await call('settings.update', { replayFolder: gameFolder });
    }
  });

  it('"Copy to game" copies the replay the player picked, an older one included, not the current PB', async () => {
    await call('replays.setPolicy', { list: 'Demo', policy: { mode: 'all' } });
    expect(await syncDemo()).toMatchObject({ outcome: 'ok' });
    const before = (await call('replays.list', {})).replays;
    // Players improve: their new PBs' replays come in, the older ones stay stored (archived).
    service.demo!.emulator.evolve({ seed: 5, fraction: 1 });
    expect(await syncDemo()).toMatchObject({ outcome: 'ok' });
    const after = (await call('replays.list', {})).replays;
    const older = after.find((r) => before.some((b) => b.recordId === r.recordId) && r.result === null && r.recordId);
    expect(older, 'an archived replay is listed').toBeDefined();
    const current = service.active.store.records.get(older!.mapUid, older!.accountId)!;
    expect(current.mapRecordId).not.toBe(older!.recordId);

    const { file } = await call('replays.copyToGame', { mapUid: older!.mapUid, accountId: older!.accountId, recordId: older!.recordId! });
    expect(sha(readFileSync(file))).toBe(sha(readFileSync(older!.file)));
    const truth = service.demo!.emulator.dataset;
    // The emulator now serves the new PB; the copy is the old record's own bytes.
    expect(sha(readFileSync(file))).not.toBe(sha(replayBytesFor(truth.records.find((r) => r.mapRecordId === current.mapRecordId)!, truth)));
  });

  it('"Copy to game" names the copy with the result as the window shows it: time, Stunt points, Platform respawns and time', async () => {
    const store = service.active.store;
    const copied = new Map<string, string>();
    for (const entry of (await call('replays.list', {})).replays) {
      const record = store.records.get(entry.mapUid, entry.accountId)!;
      if (record.mapRecordId !== entry.recordId) continue;
      const kind = mapKind(store.maps.get(entry.mapUid)!);
      if (copied.has(kind)) continue;
      copied.set(kind, path.basename((await call('replays.copyToGame', { mapUid: entry.mapUid, accountId: entry.accountId })).file));
      const name = copied.get(kind)!;
      expect(name).not.toMatch(/[<>:"/\\|?*]/);
      const result = name.slice(name.lastIndexOf('_') + 1, -'.Replay.Gbx'.length);
      const time = (ms: number): string => `${Math.floor(ms / 60000)}'${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}'${String(ms % 1000).padStart(3, '0')}`;
      if (kind === 'stunt') expect(result).toBe(`${record.score} pts`);
      else if (kind === 'platform' && record.respawnCount !== null) {
        expect(result).toBe(`${record.respawnCount} ${record.respawnCount === 1 ? 'respawn' : 'respawns'} (${time(record.time!)})`);
      } else expect(result).toBe(time(record.time!));
    }
    expect([...copied.keys()].sort()).toEqual(expect.arrayContaining(['platform', 'race', 'stunt']));
  });

  it('a replay changed on disk is refused, removed and forgotten, never copied', async () => {
    const list = (await call('replays.list', {})).replays;
    const victim = list[0]!;
    writeFileSync(victim.file, 'not the replay any more');
    const copiesBefore = readdirSync(path.join(gameFolder, 'Trackwatch')).length;
    const error = await failure('replays.copyToGame', { mapUid: victim.mapUid, accountId: victim.accountId, recordId: victim.recordId! });
    expect(error.message).toMatch(/changed or damaged on disk .* checksum/);
    expect(existsSync(victim.file)).toBe(false);
    expect(readdirSync(path.join(gameFolder, 'Trackwatch'))).toHaveLength(copiesBefore);
    expect(service.active.store.replays.get(victim.recordId!)).toMatchObject({ state: 'failed', attempts: 0 });
  });

  it('fetching a stored replay asks nothing; one changed on disk is removed and downloaded again whole', async () => {
    const current = (await call('replays.list', {})).replays.find((r) => r.result !== null)!;
    const before = sha(readFileSync(current.file));
    const emulator = service.demo!.emulator;
    const asked = emulator.stats().requests;
    expect(await call('replays.fetch', { mapUid: current.mapUid, accountId: current.accountId })).toMatchObject({ state: 'downloaded', file: current.file });
    expect(emulator.stats().requests).toBe(asked);
    writeFileSync(current.file, 'not the replay any more');
    expect(await call('replays.fetch', { mapUid: current.mapUid, accountId: current.accountId })).toMatchObject({ state: 'downloaded', file: current.file });
    expect(emulator.stats().requests).toBeGreaterThan(asked);
    expect(sha(readFileSync(current.file))).toBe(before);
  });
});

describe('"Copy to game" on a computer without the game', () => {
  let service: TrackwatchService;
  const home = path.join(root, 'home-without-the-game');
  const { call, fail: failure } = serviceCaller(() => service);

  beforeAll(async () => {
    mkdirSync(home);
    service = await TrackwatchService.open({ dataDir: path.join(root, 'data-2'), home, env: { USER: 'p' }, host: testHost(), demo: { maps: 6, players: 5, maxRps: 500 } });
    const log = eventLog(service);
    await call('setup.startDemo', {});
    await call('sync.start', { list: 'Demo' });
    await log.nth('sync.finished', 1);
  });
  afterAll(() => service.close());

  it('says the game was not found and where it looked, and creates nothing', async () => {
    const entry = (await call('replays.list', {})).replays[0];
    expect(entry, 'a replay is stored').toBeDefined();
    const error = await failure('replays.copyToGame', { mapUid: entry!.mapUid, accountId: entry!.accountId });
    expect(error.message).toMatch(/^Trackmania's folder was not found on this computer \(looked for .*steamapps\/compatdata\/2225070\/.*\); nothing was created\. If the game is installed elsewhere, set its replay folder in Settings\.$/);
    expect(readdirSync(home)).toEqual([]);
  });

  it('copies into the game\'s Replays folder once the game has made its folder (Steam under Proton)', async () => {
    const game = path.join(home, '.local/share/Steam/steamapps/compatdata/2225070/pfx/drive_c/users/steamuser/Documents/Trackmania');
    mkdirSync(game, { recursive: true });
    const entry = (await call('replays.list', {})).replays[0]!;
    const { file } = await call('replays.copyToGame', { mapUid: entry.mapUid, accountId: entry.accountId });
    expect(path.dirname(file)).toBe(path.join(game, 'Replays', 'Trackwatch'));
    expect(readFileSync(file).equals(readFileSync(entry.file))).toBe(true);
  });
});
