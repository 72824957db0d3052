// Replays: the list of downloaded ones, retrying those given up on, showing one in its folder, copying to the game.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeAtomically } from '../../core/atomic-file.ts';
import { replaysDir } from '../../core/paths.ts';
import { resolveInDataDir } from '../../core/store/files.ts';
import { PERSONAL_BEST } from '../../core/store/index.ts';
import { stripFormatting } from '../../shared/format.ts';
import { formatResult, mapKind } from '../../shared/leaderboard.ts';
import { ServiceError } from '../errors.ts';
import { replayCopyName } from '../game-folder.ts';
import type { ServiceSettings } from '../parts/settings.ts';
import * as views from '../views.ts';
import { done, writes, type HandlerContext, type SomeHandlers } from './context.ts';

type ReplayCommands = 'replays.list' | 'replays.retryFailed' | 'replays.showInFolder' | 'replays.copyToGame'
  | 'replays.openFolder' | 'app.openDataFolder' | 'replays.fetch' | 'replays.policy' | 'replays.setPolicy';

/**
 * A result as the window shows it, for a file name: the time's `:` and `.` become `'` as in the game's own names
 * (`1'29'273`), and points lose their digit grouping (`7117 pts`, `2 respawns (0'45'120)`).
 */
function fileNameResult(result: string): string {
  return result.replace(/[:.]/g, "'").replace(/,/g, '');
}

/** A folder to show, made first if no replay (or nothing at all) was stored yet. */
async function ensureDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * The game's replay folder to copy into: the one chosen in Settings, which must exist, else the one found on this
 * computer. Never made up: on a computer without the game nothing is created, and the player is told where to look.
 */
async function gameReplayFolder(settings: ServiceSettings): Promise<string> {
  const chosen = settings.gameReplayFolderChosen;
  if (chosen !== undefined) {
    const found = await stat(chosen).catch(() => undefined);
    if (!found?.isDirectory()) {
      throw new ServiceError('not_found', `The game's replay folder ${chosen} does not exist; nothing was copied. Check the folder in Settings.`);
    }
    return chosen;
  }
  const found = settings.gameReplayFolderFound;
  if (found !== undefined) return found;
  throw new ServiceError(
    'not_found',
    `Trackmania's folder was not found on this computer (looked for ${settings.gameReplayFolderCandidates.map((c) => dirname(c)).join(', ')}); nothing was created. If the game is installed elsewhere, set its replay folder in Settings.`,
  );
}

export function replayHandlers({ service, tw, store, requireList }: HandlerContext): SomeHandlers<ReplayCommands> {
  /**
   * The replay the player picked: by its record ID when given (an older, archived one), else the player's current
   * PB on the map. Its file is checked against its SHA-256 before anything copies or shows it.
   */
  async function replayFile(ref: { mapUid: string; accountId: string; recordId?: string | undefined }): Promise<{ file: string; mapName: string; playerName: string; result: string }> {
    const map = store().maps.get(ref.mapUid);
    if (!map) throw new ServiceError('not_found', 'This map is not in your data.');
    const accountId = ref.accountId.trim().toLowerCase();
    const current = store().records.get(map.mapId, accountId, PERSONAL_BEST);
    const recordId = ref.recordId?.toLowerCase() ?? current?.mapRecordId;
    const replay = recordId === undefined ? undefined : store().replays.get(recordId);
    if (!replay || replay.state !== 'downloaded' || !replay.path) {
      throw new ServiceError('not_found', 'This replay is not downloaded (a sync with replays, or "Fetch replay", brings it).');
    }
    if (replay.mapId !== map.mapId || replay.accountId !== accountId) throw new ServiceError('invalid_input', 'This replay is not of this player on this map.');
    const { file } = await tw().verifiedReplay(replay.mapRecordId);
    // The result in the copy's name is the picked record's own: the current PB's only when it is that one.
    const record = current?.mapRecordId === replay.mapRecordId ? current : undefined;
    return {
      file,
      mapName: stripFormatting(map.name),
      playerName: views.playerLabel(store().players.get(accountId) ?? { accountId, nickname: null, displayName: null }),
      result: !record ? replay.mapRecordId.slice(0, 8) : fileNameResult(formatResult(mapKind(map), record)),
    };
  }

  return {
    'replays.list': async ({ list }) => {
      const entries = store().replays.list(list === undefined ? {} : { list });
      const dataDir = tw().dataDir;
      const infos = views.replayInfos(
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
      // Each row names its record, so Copy and Show act on the replay the player picked, not on the current PB.
      const byFile = new Map(entries.flatMap((e) => (e.state === 'downloaded' && e.path ? [[resolveInDataDir(dataDir, e.path), e.mapRecordId] as const] : [])));
      return { ...infos, replays: infos.replays.map((r) => ({ ...r, recordId: byFile.get(r.file) })) };
    },

    'replays.fetch': writes(service, async (ref) => {
      const map = store().maps.get(ref.mapUid);
      if (!map) throw new ServiceError('not_found', 'This map is not in your data.');
      if (!service.canSync) throw new ServiceError('not_configured', 'Add your service account in Settings to fetch replays.');
      const { entry } = await tw().fetchReplay(map.mapId, ref.accountId, { mapRecordId: ref.recordId });
      if (entry.state !== 'downloaded' || !entry.path) return { state: 'refused' as const, file: null, bytes: null };
      return { state: 'downloaded' as const, file: resolveInDataDir(tw().dataDir, entry.path), bytes: entry.size };
    }),

    'replays.policy': async ({ list }) => store().watchlists.replayPolicy(requireList(list).name),

    'replays.setPolicy': writes(service, async ({ list, policy }) => store().watchlists.setReplayPolicy(requireList(list).name, policy)),

    'replays.retryFailed': writes(service, async () => ({ retried: store().replays.retryFailed() })),

    'replays.showInFolder': async (ref) => {
      if (!service.host.showItemInFolder) throw new ServiceError('unsupported', 'Only the desktop app can show files in a folder.');
      service.host.showItemInFolder((await replayFile(ref)).file);
      return done;
    },

    'replays.copyToGame': async (ref) => {
      const replay = await replayFile(ref);
      const folder = join(await gameReplayFolder(service.settings), 'Trackwatch');
      try {
        await mkdir(folder, { recursive: true });
        const target = join(folder, replayCopyName(replay.mapName, replay.playerName, replay.result));
        // The game lists the folder: a copy cut short must never show there under the replay's name.
        const bytes = await readFile(replay.file);
        await writeAtomically(target, (handle) => handle.writeFile(bytes), { dataDir: tw().dataDir });
        return { file: target };
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'error';
        throw new ServiceError('not_found', `Could not copy into ${folder} (${code}). Check the game's replay folder in Settings.`);
      }
    },

    'replays.openFolder': async () => {
      if (!service.host.openFolder) throw new ServiceError('unsupported', 'Only the desktop app can open folders.');
      await service.host.openFolder(await ensureDir(replaysDir(tw().dataDir)));
      return done;
    },

    'app.openDataFolder': async () => {
      if (!service.host.openFolder) throw new ServiceError('unsupported', 'Only the desktop app can open folders.');
      await service.host.openFolder(await ensureDir(tw().dataDir));
      return done;
    },
  };
}
