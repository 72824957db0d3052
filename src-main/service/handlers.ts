// The handler map: one function per contract command, each a call into the facade or the store.
// Inputs arrive parsed by dispatch(); what goes back is checked against the contract's types at compile time.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Handlers } from '../contract/commands.ts';
import { formatTime, stripFormatting } from '../shared/format.ts';
import { createNadeoClient, isUuid } from '../core/nadeo/index.ts';
import { replaysDir } from '../core/paths.ts';
import { resolveInDataDir } from '../core/store/files.ts';
import { PERSONAL_BEST } from '../core/store/index.ts';
import { isStuntMapType } from '../core/model.ts';
import { ServiceError, toErrorValue } from './errors.ts';
import { replayCopyName } from './game-folder.ts';
import type { TrackwatchService } from './service.ts';
import { Thumbnails } from './thumbnails.ts';
import * as views from './views.ts';

const done = { done: true } as const;

function loginMessage(code: string, message: string): string {
  switch (code) {
    case 'auth_failed':
      return `The service refused this login: ${message} Check the login and password of your service account (trackmania.com).`;
    case 'offline':
      return `Nadeo's service could not be reached: ${message} Check your connection and try again.`;
    case 'rate_limited':
      return 'The service asks us to slow down (429). Wait a minute and try again.';
    case 'not_configured':
      return message;
    default:
      return `The login did not work: ${message}`;
  }
}

/** Commands that change stored data: after them, cached views are stale. */
const WRITES: ReadonlySet<keyof Handlers> = new Set<keyof Handlers>([
  'watchlists.create', 'watchlists.rename', 'watchlists.delete', 'watchlists.addMaps', 'watchlists.removeMaps',
  'watchlists.addPlayers', 'watchlists.removePlayers', 'players.setNickname', 'settings.update',
]);

export function createHandlers(service: TrackwatchService): Handlers {
  const handlers = handlerMap(service);
  for (const name of WRITES) {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    (handlers as Record<string, (input: unknown) => Promise<unknown>>)[name] = async (input) => {
      try {
        return await handler(input);
      } finally {
        service.touch();
      }
    };
  }
  return handlers;
}

function handlerMap(service: TrackwatchService): Handlers {
  const thumbnails = new Thumbnails();
  const tw = () => service.active;
  const store = () => service.active.store;
  const me = () => service.active.me;

  const requireList = (list: string) => store().watchlists.require(list);

  /** The whole list's table, from the cache when nothing was written since. */
  const compareTable = (list: string) => {
    const cached = service.cachedCompare(list);
    if (cached) return cached;
    const table = views.compareTable(list, store().players.list(list), store().records.compare(list, { ...(me() ? { me: me()! } : {}) }), me());
    service.cacheCompare(list, table);
    return table;
  };

  const appInfo = () => ({
    version: service.appVersion,
    shell: service.host.shell,
    platform: service.host.platform,
    setup: service.setup,
    dataDir: service.active.dataDir,
    capabilities: {
      showInFolder: service.host.showItemInFolder !== undefined,
      saveDialog: service.host.chooseSaveFile !== undefined,
      keychain: service.host.secrets.kind === 'keychain',
      nativeNotifications: service.host.notify !== undefined,
      changeDataDir: service.host.nextDataDir !== undefined,
    },
    connection: service.connection,
  });

  const accountInfo = () => ({
    configured: Boolean(service.login && service.host.secrets.get('nadeo.password')),
    login: service.login ?? null,
    contact: service.contact,
    passwordStored: service.host.secrets.get('nadeo.password') !== undefined,
    storage: service.host.secrets.kind,
  });

  const settings = () => ({
    contact: service.contact,
    maxRps: service.maxRps,
    dataDir: service.dataDir,
    dataDirNext: service.host.nextDataDir?.get() ?? null,
    replayFolder: service.gameReplayFolder,
    replayFolderDefault: service.gameReplayFolderDefault,
    oauthClientId: service.oauthClientId ?? null,
    oauthSecretStored: service.host.secrets.get('oauth.clientSecret') !== undefined,
    theme: service.theme,
    scheduledSync: service.scheduledSync,
    notifications: service.notifications,
    me: me() ?? null,
  });

  /** Tries credentials with a client of their own, so a failed test never disturbs the saved account. */
  async function testCredentials(credentials: { login: string; password: string }, contact: string) {
    // The player is waiting on the button: two tries, short backoff, a short timeout.
    const client = createNadeoClient({
      baseUrl: service.apiUrl, appVersion: service.appVersion, contact: contact || undefined, credentials, maxRps: service.maxRps,
      retry: { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000, maxRetryAfterMs: 5000 }, timeoutMs: 10_000,
    });
    try {
      await client.testLogin();
      return { success: true, message: `Logged in as ${credentials.login}. Trackwatch can read the leaderboards.`, code: null };
    } catch (error) {
      const value = toErrorValue(error);
      if (value.code === 'offline') service.markOffline(value.message);
      return { success: false, message: loginMessage(value.code, value.message), code: value.code };
    } finally {
      await client.close();
    }
  }

  /** The current record of a player on a map, and its downloaded replay file. */
  function replayFile(mapUid: string, accountId: string): { file: string; mapName: string; playerName: string; result: string } {
    const map = store().maps.get(mapUid);
    if (!map) throw new ServiceError('not_found', 'This map is not in your data.');
    const record = store().records.get(map.mapId, accountId.trim().toLowerCase(), PERSONAL_BEST);
    const replay = record ? store().replays.get(record.mapRecordId) : undefined;
    if (!record || !replay || replay.state !== 'downloaded' || !replay.path) {
      throw new ServiceError('not_found', 'This replay is not downloaded (a sync with replays fetches it).');
    }
    const stunt = isStuntMapType(map.mapType);
    return {
      file: resolveInDataDir(tw().dataDir, replay.path),
      mapName: stripFormatting(map.name),
      playerName: views.playerLabel(store().players.get(record.accountId) ?? { accountId: record.accountId, nickname: null, displayName: null }),
      result: stunt ? `${record.score}pts` : formatTime(record.time).replace(/[:.]/g, "'"),
    };
  }

  return {
    'app.info': async () => appInfo(),

    'setup.startDemo': async () => {
      await service.enterDemo();
      return appInfo();
    },

    'setup.connect': async ({ login, password, contact }) => {
      const test = await testCredentials({ login, password }, contact);
      // A refused login is not saved; an unreachable service is (the player may be offline right now).
      if (!test.success && test.code !== 'offline') throw new ServiceError('auth_failed', test.message);
      service.set('login', login);
      service.set('contact', contact);
      service.host.secrets.set('nadeo.password', password);
      await service.enterAccount();
      return appInfo();
    },

    'setup.leaveDemo': async () => {
      if (service.setup === 'demo') await service.enterAccount();
      return appInfo();
    },

    'account.get': async () => accountInfo(),

    'account.save': async ({ login, password, contact }) => {
      service.set('login', login);
      service.set('contact', contact);
      if (password !== undefined) service.host.secrets.set('nadeo.password', password);
      await service.reconfigureMain();
      return accountInfo();
    },

    'account.forget': async () => {
      service.host.secrets.delete('nadeo.password');
      await service.reconfigureMain();
      return accountInfo();
    },

    'account.testLogin': async ({ credentials }) => {
      if (credentials) return testCredentials(credentials, credentials.contact);
      const login = service.login;
      const password = service.host.secrets.get('nadeo.password');
      if (!login || !password) return { success: false, message: 'No account is saved yet: enter a login and a password.', code: 'not_configured' };
      return testCredentials({ login, password }, service.contact);
    },

    'settings.get': async () => settings(),

    'settings.update': async (update) => {
      // Everything that can refuse the update is checked before anything is saved: all of it or none.
      const me = update.me === undefined || update.me === null ? update.me : service.requireMe(update.me);
      if (update.dataDir !== undefined && !service.host.nextDataDir) {
        throw new ServiceError('unsupported', 'Browser mode takes its data folder from `trackwatch serve --data-dir`.');
      }
      let reconnect = false;
      if (update.contact !== undefined) {
        service.set('contact', update.contact);
        reconnect = true;
      }
      if (update.maxRps !== undefined) {
        service.set('maxRps', update.maxRps);
        reconnect = true;
      }
      if (update.oauth !== undefined) {
        if (update.oauth === null) {
          service.set('oauthClientId', undefined);
          service.host.secrets.delete('oauth.clientSecret');
        } else {
          service.set('oauthClientId', update.oauth.clientId);
          if (update.oauth.clientSecret !== undefined) service.host.secrets.set('oauth.clientSecret', update.oauth.clientSecret);
        }
        reconnect = true;
      }
      if (update.theme !== undefined) service.set('theme', update.theme);
      if (update.notifications !== undefined) service.set('notify', update.notifications);
      if (update.replayFolder !== undefined) service.set('gameFolder', update.replayFolder ?? undefined);
      if (update.scheduledSync !== undefined) {
        service.set('schedule', update.scheduledSync);
        service.reschedule();
      }
      if (me !== undefined) tw().setMe(me ?? undefined);
      if (update.dataDir !== undefined) service.host.nextDataDir!.set(update.dataDir);
      if (reconnect) await service.reconfigureMain();
      return settings();
    },

    'watchlists.list': async () => store().watchlists.list().map(views.watchlistSummary),

    'watchlists.get': async ({ list }) => {
      const summary = store().watchlists.get(list);
      if (!summary) throw new ServiceError('not_found', `There is no list named "${list}".`);
      const players = store().players;
      const authorName = (id: string) => players.get(id)?.displayName ?? null;
      return {
        summary: views.watchlistSummary(summary),
        maps: store().maps.list(list).map((m) => views.mapSummary(m, authorName(m.author))),
        players: players.list(list).map((p) => views.playerSummary(p, me())),
      };
    },

    'watchlists.create': async ({ name }) => {
      const created = store().watchlists.create(name);
      return views.watchlistSummary(store().watchlists.get(created.id)!);
    },

    'watchlists.rename': async ({ list, name }) => {
      const renamed = store().watchlists.rename(list, name);
      return views.watchlistSummary(store().watchlists.get(renamed.id)!);
    },

    'watchlists.delete': async ({ list }) => {
      store().watchlists.delete(list);
      return done;
    },

    'watchlists.addMaps': async ({ list, refs }) => {
      requireList(list);
      try {
        const outcome = await tw().addMaps(list, refs);
        return { added: outcome.added, alreadyListed: outcome.alreadyListed, pending: [], notFound: outcome.notFound, invalid: outcome.invalid };
      } catch (error) {
        const value = toErrorValue(error);
        if (value.code !== 'offline' && value.code !== 'not_configured' && value.code !== 'auth_failed') throw error;
        // Offline (or no account yet): keep them as pending refs; the next sync looks them up.
        if (value.code === 'offline') service.markOffline(value.message);
        const outcome = await tw().addMaps(list, refs, { lookUp: false });
        return { added: [], alreadyListed: outcome.alreadyListed, pending: outcome.added, notFound: [], invalid: outcome.invalid };
      }
    },

    'watchlists.removeMaps': async ({ list, mapUids }) => {
      store().maps.removeFromList(list, mapUids.map((ref) => (isUuid(ref) ? { mapId: ref } : { mapUid: ref })));
      return done;
    },

    'watchlists.addPlayers': async ({ list, players }) => {
      requireList(list);
      const outcome = tw().addPlayers(list, players);
      return { added: outcome.added, alreadyListed: outcome.alreadyListed, invalid: outcome.invalid };
    },

    'watchlists.removePlayers': async ({ list, accountIds }) => {
      store().players.remove(list, accountIds);
      return done;
    },

    'players.setNickname': async ({ accountId, nickname }) => {
      store().players.setNickname(accountId, nickname);
      return done;
    },

    'maps.get': async ({ list, mapUid }) => {
      const summary = store().watchlists.get(list);
      if (!summary) throw new ServiceError('not_found', `There is no list named "${list}".`);
      const map = store().maps.get(mapUid);
      if (!map) throw new ServiceError('not_found', 'This map is not in your data yet: a sync looks it up.');
      const players = store().players.list(list);
      const records = store().records.forMap(map.mapId, { scope: PERSONAL_BEST });
      const replays = store().replays;
      return {
        list: summary.name,
        map: views.mapSummary(map, store().players.get(map.author)?.displayName ?? null),
        entries: views.rankedEntries(map, players, records, me(), (id) => replays.get(id)).map((entry) => ({
          ...entry,
          replay: entry.replay.file ? { ...entry.replay, file: resolveInDataDir(tw().dataDir, entry.replay.file) } : entry.replay,
        })),
        lastSyncAt: summary.lastSyncAt,
        replayFolder: service.gameReplayFolder,
      };
    },

    // Thumbnails are public files: a contact for the User-Agent is enough to fetch one, no login needed.
    'maps.thumbnail': async ({ mapUid }) => ({ dataUrl: await thumbnails.dataUrl(tw(), mapUid, service.canSync || service.contact !== '') }),

    'compare.get': async ({ list, first }) => {
      const summary = store().watchlists.require(list);
      const cached = service.cachedCompare(summary.name);
      if (cached) return first === undefined ? cached : { ...cached, rows: cached.rows.slice(0, first), complete: first >= cached.total };
      if (first !== undefined) {
        // The first screen of a big list: a few maps' records, not the whole list's, so the view paints at once.
        const players = store().players.list(list);
        const maps = store().maps.list(list);
        const head = views.compareRowsOf(maps.slice(0, first), (mapId) => store().records.forMap(mapId, { scope: PERSONAL_BEST }));
        return { ...views.compareTable(summary.name, players, head, me()), total: maps.length, complete: first >= maps.length };
      }
      return compareTable(summary.name);
    },

    'players.get': async ({ list, accountId }) => {
      const summary = store().watchlists.require(list);
      const id = accountId.trim().toLowerCase();
      const table = compareTable(summary.name);
      const column = table.players.findIndex((p) => p.accountId === id);
      if (column === -1) throw new ServiceError('not_found', 'This player is not in the list.');
      const setAt = new Map(store().records.forPlayer(id, { scope: PERSONAL_BEST }).map((r) => [r.mapUid, r.timestamp]));
      const history = store().records.history({ player: id, list, scope: PERSONAL_BEST });
      return {
        list: summary.name,
        player: table.players[column]!,
        pbs: views.playerPbs(table, column, (mapUid) => setAt.get(mapUid) ?? null),
        history: views.improvements(history, (mapId) => store().maps.get(mapId)),
      };
    },

    'replays.list': async ({ list }) => {
      const entries = store().replays.list(list === undefined ? {} : { list });
      const dataDir = tw().dataDir;
      return views.replayInfos(
        entries,
        replaysDir(dataDir),
        (rel) => resolveInDataDir(dataDir, rel),
        (mapId, accountId) => store().records.get(mapId, accountId, PERSONAL_BEST),
        (mapId) => store().maps.get(mapId),
        (accountId) => {
          const player = store().players.get(accountId);
          return player ? views.playerLabel(player) : undefined;
        },
      );
    },

    'replays.retryFailed': async () => ({ retried: store().replays.retryFailed() }),

    'replays.showInFolder': async ({ mapUid, accountId }) => {
      if (!service.host.showItemInFolder) throw new ServiceError('unsupported', 'Only the desktop app can show files in a folder.');
      service.host.showItemInFolder(replayFile(mapUid, accountId).file);
      return done;
    },

    'replays.copyToGame': async ({ mapUid, accountId }) => {
      const replay = replayFile(mapUid, accountId);
      const folder = join(service.gameReplayFolder, 'Trackwatch');
      try {
        await mkdir(folder, { recursive: true });
        const target = join(folder, replayCopyName(replay.mapName, replay.playerName, replay.result));
        await copyFile(replay.file, target);
        return { file: target };
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'error';
        throw new ServiceError('not_found', `Could not copy into ${folder} (${code}). Check the game's replay folder in Settings.`);
      }
    },

    'replays.openFolder': async () => {
      if (!service.host.openFolder) throw new ServiceError('unsupported', 'Only the desktop app can open folders.');
      await service.host.openFolder(await service.ensureDir(replaysDir(tw().dataDir)));
      return done;
    },

    'app.openDataFolder': async () => {
      if (!service.host.openFolder) throw new ServiceError('unsupported', 'Only the desktop app can open folders.');
      await service.host.openFolder(await service.ensureDir(tw().dataDir));
      return done;
    },

    'sync.start': async ({ list, replays }) => {
      if (service.setup === 'none') throw new ServiceError('not_configured', 'Choose the demo or connect an account first.');
      if (list !== undefined) requireList(list);
      if (!service.canSync) throw new ServiceError('not_configured', 'Add your service account in Settings to sync.');
      return { runId: service.runner.start({ list, replays }) };
    },

    'sync.cancel': async () => ({ cancelled: service.runner.cancel() }),

    'sync.status': async () => ({ running: service.runner.running, last: service.runner.last, nextScheduledAt: service.nextScheduledAt }),

    'export.csv': async ({ list, bom }) => {
      if (list !== undefined) requireList(list);
      const stamp = service.now().toISOString().slice(0, 10);
      const fileName = `trackwatch-${(list ?? 'all-lists').replace(/[^\w.-]+/g, '_')}-${stamp}.csv`;
      if (service.host.chooseSaveFile) {
        const file = await service.host.chooseSaveFile(fileName);
        if (!file) return { kind: 'cancelled' as const };
        const result = await tw().exportCsv(file, { list, bom });
        return { kind: 'saved' as const, file: result.file, rows: result.rows };
      }
      const file = join(tmpdir(), `trackwatch-export-${process.pid}-${Date.now()}.csv`);
      try {
        const result = await tw().exportCsv(file, { list, bom });
        const content = await readFile(file, 'utf8');
        return { kind: 'download' as const, fileName, content, rows: result.rows };
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}
