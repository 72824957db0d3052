// What the window reads: a map's leaderboard, the compare grid, a player's PBs, map thumbnails.
import { resolveInDataDir } from '../../core/store/files.ts';
import { PERSONAL_BEST } from '../../core/store/index.ts';
import { ServiceError } from '../errors.ts';
import * as views from '../views.ts';
import type { HandlerContext, SomeHandlers } from './context.ts';

type ViewCommands = 'maps.get' | 'maps.thumbnail' | 'compare.get' | 'players.get';

export function viewHandlers({ service, thumbnails, tw, store, me, readFacts, compareTable }: HandlerContext): SomeHandlers<ViewCommands> {
  return {
    'maps.get': async ({ list, mapUid }) => {
      const summary = store().watchlists.get(list);
      if (!summary) throw new ServiceError('not_found', `There is no list named "${list}".`);
      const map = store().maps.get(mapUid);
      if (!map) throw new ServiceError('not_found', 'This map is not in your data yet: a sync looks it up.');
      const players = store().players.list(list);
      const records = store().records.forMap(map.mapId, { scope: PERSONAL_BEST });
      const replays = store().replays;
      const positions = new Map(store().positions.forMap(map.mapId).map((p) => [p.accountId, p]));
      const facts = { viewer: store().settings.viewer(), positionOf: (_mapId: string, accountId: string) => positions.get(accountId) };
      const { entries, secret, bestIsKnown } = views.rankedEntries(map, players, records, me(), (id) => replays.get(id), facts);
      return {
        list: summary.name,
        map: views.mapSummary(map, store().players.get(map.author)?.displayName ?? null),
        entries: entries.map((entry) => ({
          ...entry,
          replay: entry.replay.file ? { ...entry.replay, file: resolveInDataDir(tw().dataDir, entry.replay.file) } : entry.replay,
          position: views.worldPosition(positions.get(entry.player.accountId), map.mapType, entry),
        })),
        secret,
        bestIsKnown,
        lastSyncAt: summary.lastSyncAt,
        lastCheckedAt: store().syncRuns.mapsCheckedAt(summary.id).get(map.mapId) ?? null,
        replayFolder: service.settings.gameReplayFolder,
      };
    },

    // Thumbnails are public files: a contact for the User-Agent is enough to fetch one, no login needed.
    'maps.thumbnail': async ({ mapUid }) => ({ dataUrl: await thumbnails.dataUrl(tw(), mapUid, service.folder.readOnly === null && (service.canSync || service.settings.contact !== '')) }),

    'compare.get': async ({ list, first }) => {
      const summary = store().watchlists.require(list);
      const cached = service.compareCache.get(summary.name);
      if (cached) return first === undefined ? cached : { ...cached, rows: cached.rows.slice(0, first), complete: first >= cached.total };
      if (first !== undefined) {
        // The first screen of a big list: a few maps' records, not the whole list's, so the view paints at once.
        const players = store().players.list(list);
        const maps = store().maps.list(list);
        const head = maps.slice(0, first).map((map) => ({ map, records: store().records.forMap(map.mapId, { scope: PERSONAL_BEST }) }));
        const worldRecords = { byMap: new Map(store().worldRecords.forList(list).map((wr) => [wr.mapId, wr])), nameOf: (id: string) => store().players.nameOf(id) };
        return { ...views.compareTable(summary.name, players, head, me(), readFacts(summary.name), worldRecords), total: maps.length, complete: first >= maps.length };
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
      const positions = new Map(store().positions.forPlayer(id).map((p) => [p.mapUid, p]));
      const mapTypes = new Map(table.rows.map((row) => [row.mapUid, row.mapType]));
      return {
        list: summary.name,
        player: table.players[column]!,
        pbs: views.playerPbs(table, column, (mapUid) => setAt.get(mapUid) ?? null).map((pb) => ({
          ...pb,
          position: views.worldPosition(positions.get(pb.mapUid), mapTypes.get(pb.mapUid) ?? '', pb),
        })),
        history: views.improvements(history, (mapId) => store().maps.get(mapId)),
      };
    },
  };
}
