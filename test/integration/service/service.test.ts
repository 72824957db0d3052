// The handler map end to end over real SQLite and the emulator: the demo, a sync, and what each view reads.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/service/dispatch.ts';
import { createHandlers } from '../../../src-main/service/handlers/index.ts';
import { memorySecretStore } from '../../../src-main/service/secrets.ts';
import { MAX_REPLAY_ATTEMPTS } from '../../../src-main/core/store/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { openTrackwatch } from '../../../src-main/core/trackwatch.ts';
import { generateDataset, startEmulator } from '../../../src-main/emulator/index.ts';
import type { RunningEmulator } from '../../../src-main/emulator/index.ts';
import { stripFormatting } from '../../../src-main/shared/format.ts';
import { formatImprovement } from '../../../src-main/shared/leaderboard.ts';
import { eventLog, serviceCaller, testHost } from '../../helpers/service.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tw-service-'));
  dirs.push(dir);
  return dir;
};

/** The window's commands and events on `service`; `finished(n)` is the n-th sync.finished, told by the service. */
function harness(service: TrackwatchService) {
  const log = eventLog(service);
  return { ...serviceCaller(service), events: log.events, finished: (count: number) => log.nth('sync.finished', count) };
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the demo, synced', () => {
  let service: TrackwatchService;
  let h: ReturnType<typeof harness>;
  const notes: { title: string; body: string }[] = [];

  beforeAll(async () => {
    const host = testHost({ notify: (title: string, body: string) => void notes.push({ title, body }) });
    service = await TrackwatchService.open({ dataDir: tempDir(), host, demo: { maxRps: 500 } });
    h = harness(service);
  });
  afterAll(() => service.close());

  it('starts on the welcome screen, then the demo fills a list', async () => {
    expect((await h.call('app.info', {})).setup).toBe('none');
    await expect(h.fail('sync.start', {})).resolves.toMatchObject({ code: 'not_configured' });
    const info = await h.call('setup.startDemo', {});
    expect(info).toMatchObject({ setup: 'demo', shell: 'browser', capabilities: { showInFolder: false, saveDialog: false, keychain: false } });
    const lists = await h.call('watchlists.list', {});
    expect(lists).toEqual([expect.objectContaining({ name: 'Demo', maps: 24, players: 12, lastSyncAt: null })]);
  });

  it('syncs in the background with progress events, one at a time', async () => {
    const { runId } = await h.call('sync.start', { list: 'Demo' });
    await expect(h.fail('sync.start', {})).resolves.toMatchObject({ code: 'busy' });
    const finished = await h.finished(1);
    expect(finished).toMatchObject({ runId, list: 'Demo', outcome: 'ok', maps: 24 });
    // One ID names the run everywhere: the stored run's, in sync.start, every progress event and sync.finished.
    expect(runId).toBe(String(service.active.store.syncRuns.last()!.id));
    expect(h.events('sync.progress').every((p) => p.runId === runId)).toBe(true);
    const progress = h.events('sync.progress').filter((p) => p.runId === runId);
    expect(progress.some((p) => p.phase === 'Reading records' && p.total === 24)).toBe(true);
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    // A first sync sees every record for the first time: nothing to announce.
    expect(h.events('pb.new')).toEqual([]);
    expect(notes).toEqual([]);
    expect((await h.call('sync.status', {})).running).toBeNull();
    expect((await h.call('watchlists.list', {}))[0]!.lastSyncOutcome).toBe('ok');
  });

  it('the compare table holds exactly the stored personal bests; secret ones show no time, score or respawns', async () => {
    const table = await h.call('compare.get', { list: 'Demo' });
    const store = service.active.store;
    expect(table.players).toHaveLength(12);
    expect(table.me).not.toBeNull();
    expect(table.players[table.me!]!.accountId).toBe(service.active.store.settings.me());
    let hidden = 0;
    for (const row of table.rows) {
      const map = store.maps.get(row.mapUid)!;
      table.players.forEach((player, column) => {
        const record = store.records.get(map.mapId, player.accountId);
        const cell = row.cells[column] ?? null;
        expect(cell === null, `${row.mapUid} ${player.accountId}`).toBe(record === undefined);
        if (!record || !cell) return;
        expect(cell.hidden ?? false).toBe(record.hidden);
        if (record.hidden) {
          hidden += 1;
          // Its medal and its place (a rank, or the range it may hold), nothing of its result.
          const { rank, rankRange, isBest, ...rest } = cell;
          expect(rest).toEqual({ hidden: true, medal: record.medal });
          expect(rank !== undefined || rankRange !== undefined).toBe(true);
          expect(isBest === undefined || rank === 1).toBe(true);
        } else {
          expect(cell.time).toBe(record.time ?? undefined);
          expect(cell.score).toBe(row.kind === 'stunt' ? record.score : undefined);
        }
      });
    }
    expect(hidden).toBeGreaterThan(0);
  });

  it('the first rows of a compare table come alone and match the whole table', async () => {
    service.touch();
    const head = await h.call('compare.get', { list: 'Demo', first: 5 });
    expect(head).toMatchObject({ total: 24, complete: false });
    expect(head.rows).toHaveLength(5);
    const full = await h.call('compare.get', { list: 'Demo' });
    expect(full).toMatchObject({ total: 24, complete: true });
    expect(head.rows).toEqual(full.rows.slice(0, 5));
    expect(head.me).toBe(full.me);
    // Served from the cache now, still the same rows; a write drops the cache.
    expect((await h.call('compare.get', { list: 'Demo', first: 5 })).rows).toEqual(head.rows);
    expect((await h.call('compare.get', { list: 'Demo', first: 50 })).complete).toBe(true);
    // A write by another process (the command line on the same folder) is seen too.
    const cli = await openTrackwatch({ dataDir: service.active.dataDir, apiUrl: 'http://127.0.0.1:9' });
    const extra = '00000000-0000-4000-8000-00000000cafe';
    try {
      cli.store.players.add('Demo', [{ accountId: extra, nickname: 'From the CLI' }]);
      expect((await h.call('compare.get', { list: 'Demo', first: 5 })).players.map((p) => p.accountId)).toContain(extra);
      cli.store.players.remove('Demo', [extra]);
      expect((await h.call('compare.get', { list: 'Demo', first: 5 })).players.map((p) => p.accountId)).not.toContain(extra);
    } finally {
      await cli.close();
    }
  });

  it('a map ranks the watched players, with deltas as value − reference', async () => {
    const table = await h.call('compare.get', { list: 'Demo' });
    // A race map where I have a time and at least two others do too (the demo has a "me").
    expect(table.me).not.toBeNull();
    const visible = (r: (typeof table.rows)[number]) => r.cells.filter((c) => c !== null && !c.hidden).length;
    const row = table.rows.find((r) => r.kind === 'race' && r.cells[table.me!]?.time != null && visible(r) >= 3)!;
    const detail = await h.call('maps.get', { list: 'Demo', mapUid: row.mapUid });
    const ranked = detail.entries.filter((e) => !e.hidden && e.rankRange !== null);
    const times = ranked.map((e) => e.time!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Entries are listed by the best rank each may hold, secret ones among them (placed by what is known of them).
    const placed = detail.entries.filter((e) => e.rankRange !== null);
    expect(placed.map((e) => e.rankRange!.min)).toEqual(placed.map((e) => e.rankRange!.min).sort((a, b) => a - b));
    expect(placed.every((e) => e.rankRange!.min <= e.rankRange!.max && (e.rank === null || e.rank === e.rankRange!.min))).toBe(true);
    expect(ranked[0]!.deltaToBestVisible).toEqual({ unit: 'time', value: 0, time: null });
    expect(ranked[1]!.deltaToBestVisible?.value).toBe(times[1]! - times[0]!);
    // "To the best" only where the best is known.
    for (const e of ranked) expect(e.deltaToBest).toEqual(detail.bestIsKnown ? e.deltaToBestVisible : null);
    const me = detail.entries.find((e) => e.player.isMe)!;
    expect(me.time).not.toBeNull();
    const other = ranked.find((e) => !e.player.isMe)!;
    expect(other.deltaToMe?.value).toBe(other.time! - me.time!);
    expect(me.deltaToMe).toBeNull();
    expect(detail.entries.filter((e) => e.hidden).every((e) => e.rankRange !== null && e.time === null && e.replay.state === 'hidden')).toBe(true);
    const downloaded = detail.entries.find((e) => e.replay.state === 'downloaded')!;
    expect(existsSync(downloaded.replay.file!)).toBe(true);
  });

  it('a player has a PB per map and a history of first sightings', async () => {
    const me = service.active.store.settings.me()!;
    const detail = await h.call('players.get', { list: 'Demo', accountId: me });
    expect(detail.player.isMe).toBe(true);
    expect(detail.pbs).toHaveLength(24);
    const withRecord = detail.pbs.filter((p) => p.hasRecord).length;
    expect(detail.history.length).toBe(withRecord);
    expect(detail.history.every((item) => item.first)).toBe(true);
  });

  it('new personal bests after the world moves on are announced, first sightings are not', async () => {
    const emulator = service.demo!.emulator;
    const changed = emulator.evolve({ seed: 7, fraction: 0.3 });
    expect(changed.improved).toBeGreaterThan(0);
    await h.call('sync.start', {});
    const finished = await h.finished(2);
    expect(finished.outcome).toBe('ok');
    const announced = h.events('pb.new');
    expect(announced.length).toBeGreaterThan(0);
    expect(announced.every((pb) => pb.previous !== null || pb.result.hidden)).toBe(true);
    // A few new PBs each get a desktop notification; more than three become one summary at the end.
    expect(notes[0]!.title).toMatch(/^New PB: /);
    // Each reads in its map kind's unit, as the leaderboard module writes it (Platform: respawns, then time).
    for (const [i, pb] of announced.slice(0, 3).entries()) {
      expect(notes[i]!.body).toBe(`${stripFormatting(pb.mapName)}: ${formatImprovement(pb.kind, pb.result, pb.previous)}`);
    }
    expect(notes.length).toBe(announced.length <= 3 ? announced.length : 4);
    if (announced.length > 3) expect(notes[3]!.body).toContain(`${announced.length} new PBs`);
    const me = service.active.store.settings.me()!;
    const history = (await h.call('players.get', { list: 'Demo', accountId: me })).history;
    expect(history.length).toBeGreaterThanOrEqual((await h.call('players.get', { list: 'Demo', accountId: me })).pbs.filter((p) => p.hasRecord).length);
  });

  it('lists downloaded replays with their sizes', async () => {
    const replays = await h.call('replays.list', {});
    expect(replays.replays.length).toBeGreaterThan(0);
    expect(replays.totalBytes).toBe(replays.replays.reduce((sum, r) => sum + r.bytes, 0));
    expect(replays.replays.every((r) => existsSync(r.file) && r.file.startsWith(replays.folder))).toBe(true);
    await expect(h.fail('replays.showInFolder', { mapUid: replays.replays[0]!.mapUid, accountId: replays.replays[0]!.accountId })).resolves.toMatchObject({ code: 'unsupported' });
  });

  it('counts the replays syncs gave up on, and gives them their tries back on request', async () => {
    const store = service.active.store;
    const pending = store.replays.pending(1).length;
    expect(pending).toBe(0); // the demo sync downloaded every replay it could
    // A visible current record whose replay failed three times: what an outage during the demo sync would leave.
    const target = store.records.forMap(store.maps.list()[0]!.mapId).find((r) => !r.hidden)!;
    store.db.prepare("UPDATE replays SET state = 'failed', path = NULL, size = NULL, sha256 = NULL WHERE record_id = ?").run(target.mapRecordId);
    for (let i = 0; i < MAX_REPLAY_ATTEMPTS; i += 1) store.replays.markFailed(target.mapRecordId, 'HTTP 503');
    expect((await h.call('replays.list', {})).givenUp).toBe(1);
    expect(store.replays.pending(10)).toHaveLength(0);

    expect(await h.call('replays.retryFailed', {})).toEqual({ retried: 1 });
    expect((await h.call('replays.list', {})).givenUp).toBe(0);
    expect(store.replays.pending(10).map((p) => p.mapRecordId)).toEqual([target.mapRecordId]);
    expect(await h.call('replays.retryFailed', {})).toEqual({ retried: 0 });
    await expect(h.fail('replays.retryFailed', { extra: 1 })).resolves.toMatchObject({ code: 'invalid_input' });
  });

  it('exports the CSV as a download in browser mode', async () => {
    const result = await h.call('export.csv', { list: 'Demo' });
    if (result.kind !== 'download') throw new Error(`expected a download, got ${result.kind}`);
    expect(result.fileName).toMatch(/^trackwatch-Demo-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/);
    // Names may hold line breaks (quoted), so there are at least as many lines as rows plus the header.
    expect(result.content.trim().split(/\r?\n/).length).toBeGreaterThanOrEqual(result.rows + 1);
    expect(result.content.split(/\r?\n/)[0]).toMatch(/map_?uid/i);
    expect(result.rows).toBeGreaterThan(100);
  });

  it('says which pasted maps were not found and which text names no map', async () => {
    await h.call('watchlists.create', { name: 'Mine' });
    const result = await h.call('watchlists.addMaps', { list: 'Mine', refs: ['NotARealUidButLongEnough12', 'not-a-map!', service.active.store.maps.list('Demo')[0]!.mapUid] });
    expect(result.added).toHaveLength(1);
    expect(result.notFound).toEqual(['NotARealUidButLongEnough12']);
    expect(result.invalid.map((i) => i.input)).toEqual(['not-a-map!']);
    // A club campaign or player link pasted among maps points to the window's own buttons, not to command-line syntax.
    const club = 'https://trackmania.io/#/campaigns/12345/67890';
    const player = `https://trackmania.io/#/player/${service.active.store.settings.me()!}`;
    const links = await h.call('watchlists.addMaps', { list: 'Mine', refs: [club, player, service.active.store.maps.list('Demo')[1]!.mapUid] });
    expect(links.invalid).toEqual([
      { input: club, reason: 'this club campaign link is a whole list of maps: make a list from it with “New list from…” on the home page' },
      { input: player, reason: 'this is a player link, not a map: add the player with “Add players”' },
    ]);
    expect(JSON.stringify(links)).not.toMatch(/lists create|players add|--from/);
    const players = await h.call('watchlists.addPlayers', { list: 'Mine', players: [{ accountId: 'nope' }, { accountId: service.active.store.settings.me()!, nickname: 'Me' }] });
    expect(players.added).toHaveLength(1);
    expect(players.invalid.map((i) => i.accountId)).toEqual(['nope']);
    await expect(h.fail('watchlists.create', { name: 'mine' })).resolves.toMatchObject({ code: 'conflict' });
    await expect(h.fail('compare.get', { list: 'Nope' })).resolves.toMatchObject({ code: 'not_found' });
  });

  it('keeps settings, and refuses a scheduled sync more often than every 15 minutes', async () => {
    const settings = await h.call('settings.update', { theme: 'light', scheduledSync: { enabled: true, everyMinutes: 15 }, notifications: false });
    expect(settings).toMatchObject({ theme: 'light', scheduledSync: { enabled: true, everyMinutes: 15 }, notifications: false });
    expect((await h.call('sync.status', {})).nextScheduledAt).not.toBeNull();
    await expect(h.fail('settings.update', { scheduledSync: { enabled: true, everyMinutes: 1 } })).resolves.toEqual({
      code: 'invalid_input', message: 'A scheduled sync runs at most every 15 minutes: choose 15 or more.',
    });
    // A contact goes into a request header: one line. A replay folder is a full path.
    for (const [name, input] of [
      ['settings.update', { contact: 'me@example.com\r\nX-Injected: 1' }],
      ['account.save', { login: 'someone', password: 'secret', contact: 'me@example.com\nX-Injected: 1' }],
    ] as const) {
      await expect(h.fail(name, input), name).resolves.toMatchObject({ code: 'invalid_input', message: 'The contact must be one line of text, without line breaks or control characters.' });
    }
    await expect(h.fail('settings.update', { replayFolder: 'relative/replays' })).resolves.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^The game's replay folder must be a full path \(like .+\), not "relative\/replays"\.$/) });
    expect(await dispatch(createHandlers(service), undefined, {})).toMatchObject({ ok: false, error: { code: 'unknown_command', message: 'A request must name its command (a non-empty "name").' } });
    await h.call('settings.update', { scheduledSync: { enabled: false, everyMinutes: 60 } });
    expect((await h.call('sync.status', {})).nextScheduledAt).toBeNull();
    // An update with one bad part saves none of it.
    await expect(h.fail('settings.update', { theme: 'dark', maxRps: 0.5, me: 'not-an-account' })).resolves.toMatchObject({ code: 'invalid_input' });
    await expect(h.fail('settings.update', { theme: 'dark', dataDir: '/elsewhere' })).resolves.toMatchObject({ code: 'unsupported' });
    expect(await h.call('settings.get', {})).toMatchObject({ theme: 'light', maxRps: settings.maxRps });
  });
});

describe('a sync', () => {
  it('can be cancelled, and says so', async () => {
    const service = await TrackwatchService.open({ dataDir: tempDir(), host: testHost(), demo: { maxRps: 5 } });
    try {
      const h = harness(service);
      await h.call('setup.startDemo', {});
      const { runId } = await h.call('sync.start', {});
      expect((await h.call('sync.status', {})).running?.runId).toBe(runId);
      expect(await h.call('sync.cancel', {})).toEqual({ cancelled: true });
      const finished = await h.finished(1);
      expect(finished).toMatchObject({ runId, outcome: 'cancelled', error: null });
      expect(await h.call('sync.cancel', {})).toEqual({ cancelled: false });
    } finally {
      await service.close();
    }
  });
});

describe('an account', () => {
  let emulator: RunningEmulator;
  let service: TrackwatchService;
  let h: ReturnType<typeof harness>;
  const secrets = memorySecretStore();

  beforeAll(async () => {
    emulator = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 3, maps: 4, players: 3 }), auth: { login: 'svc-login', password: 'svc-password' } });
    service = await TrackwatchService.open({ dataDir: tempDir(), apiUrl: emulator.url, host: testHost({ secrets }) });
    h = harness(service);
  });
  afterAll(async () => {
    await service.close();
    await emulator.close();
  });

  it('test login says clearly what went right and what went wrong', async () => {
    const good = await h.call('account.testLogin', { credentials: { login: 'svc-login', password: 'svc-password', contact: 'me@example.com' } });
    expect(good).toMatchObject({ success: true, code: null });
    const bad = await h.call('account.testLogin', { credentials: { login: 'svc-login', password: 'wrong', contact: 'me@example.com' } });
    expect(bad.success).toBe(false);
    expect(bad.code).toBe('auth_failed');
    expect(bad.message).toMatch(/refused this login/);
    expect((await h.call('account.testLogin', {})).code).toBe('not_configured');
  });

  it('tells an unreachable service apart from a wrong password', async () => {
    const closed = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 3, maps: 1, players: 1 }) });
    await closed.close();
    const other = await TrackwatchService.open({ dataDir: tempDir(), apiUrl: closed.url, host: testHost() });
    try {
      const result = await harness(other).call('account.testLogin', { credentials: { login: 'a', password: 'b', contact: 'me@example.com' } });
      expect(result).toMatchObject({ success: false, code: 'offline' });
      expect(result.message).toMatch(/could not be reached/);
      expect(other.connection.status.state).toBe('offline');
    } finally {
      await other.close();
    }
  });

  it('connect refuses a wrong password, and keeps a good one only in the secret store', async () => {
    await expect(h.fail('setup.connect', { login: 'svc-login', password: 'wrong', contact: 'me@example.com' })).resolves.toMatchObject({ code: 'auth_failed' });
    expect(secrets.get('nadeo.password')).toBeUndefined();
    const info = await h.call('setup.connect', { login: 'svc-login', password: 'svc-password', contact: 'me@example.com' });
    expect(info.setup).toBe('account');
    expect(secrets.get('nadeo.password')).toBe('svc-password');
    const account = await h.call('account.get', {});
    expect(account).toEqual({ configured: true, login: 'svc-login', contact: 'me@example.com', passwordStored: true, storage: 'memory' });
    expect(JSON.stringify(await h.call('settings.get', {}))).not.toContain('svc-password');
    expect(JSON.stringify(service.folder.main.store.settings.all())).not.toContain('svc-password');
    await h.call('setup.startDemo', {});
    expect((await h.call('watchlists.list', {})).map((l) => l.name)).toEqual(['Demo']);
    expect((await h.call('setup.leaveDemo', {})).setup).toBe('account');
    expect(await h.call('watchlists.list', {})).toEqual([]);
    expect((await h.call('account.get', {})).configured).toBe(true);
    await h.call('account.forget', {});
    expect(secrets.get('nadeo.password')).toBeUndefined();
  });
});

describe('a demo folder another process has open', () => {
  it('opens on the welcome screen instead of failing, and Try the demo says why until the folder is free', async () => {
    const dataDir = tempDir();
    const host = testHost({ notify: () => {} });
    const demo = { maps: 3, players: 3, maxRps: 500 };
    const first = await TrackwatchService.open({ dataDir, host, demo });
    await first.enterDemo();
    await first.close();
    // What `trackwatch demo` in another process leaves while it runs (a live PID: this one).
    writeFileSync(path.join(dataDir, 'demo.lock'), String(process.pid));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const service = await TrackwatchService.open({ dataDir, host, demo });
    try {
      await new Promise((r) => setImmediate(r));
      expect(service.folder.setup).toBe('none');
      expect(warnings.some((w) => w.includes('in use by another Trackwatch'))).toBe(true);
      const h = harness(service);
      const refused = await h.fail('setup.startDemo', {});
      expect(refused).toMatchObject({ code: 'busy', retryable: true });
      expect(refused.message).toContain(`in use by another Trackwatch (process ${process.pid})`);
      rmSync(path.join(dataDir, 'demo.lock'));
      await h.call('setup.startDemo', {});
      expect(service.folder.setup).toBe('demo');
    } finally {
      process.off('warning', onWarning);
      await service.close();
    }
  });
});
