// Replays: the list of downloaded ones, retrying those given up on, showing one in its folder, copying to the game.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isStuntMapType } from '../../core/model.ts';
import { replaysDir } from '../../core/paths.ts';
import { resolveInDataDir } from '../../core/store/files.ts';
import { PERSONAL_BEST } from '../../core/store/index.ts';
import { formatTime, stripFormatting } from '../../shared/format.ts';
import { ServiceError } from '../errors.ts';
import { replayCopyName } from '../game-folder.ts';
import * as views from '../views.ts';
import { done, writes, type HandlerContext, type SomeHandlers } from './context.ts';

type ReplayCommands = 'replays.list' | 'replays.retryFailed' | 'replays.showInFolder' | 'replays.copyToGame'
  | 'replays.openFolder' | 'app.openDataFolder';

export function replayHandlers({ service, tw, store }: HandlerContext): SomeHandlers<ReplayCommands> {
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

    'replays.retryFailed': writes(service, async () => ({ retried: store().replays.retryFailed() })),

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
  };
}
