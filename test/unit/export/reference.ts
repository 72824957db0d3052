// The CSV export's reference mapping, the oracle its fast writer (core/export/csv.ts CsvWriter) is held to: one row in
// the friendly form, turned into cells csv-stringify then encodes whole. Written for the tests; the product writes
// through CsvWriter alone.
import { NameCache, neutraliseFormula } from '../../../src-main/core/export/csv.ts';
import { medalName } from '../../../src-main/shared/format.ts';
import { formatRank, formatResult, mapKind, playerLabel, rankStoredBoard, worldScoreOf, type MedalScores } from '../../../src-main/shared/leaderboard.ts';

/** One row of the CSV export, before formatting. */
export interface ExportRow {
  /** Stand for the map and the player within one export: equal keys, equal map (player) cells. */
  mapKey: number;
  playerKey: number;
  mapUid: string;
  mapId: string;
  mapName: string;
  accountId: string;
  displayName: string | null;
  nickname: string | null;
  gameMode: string;
  scope: string;
  time: number | null;
  score: number;
  respawnCount: number | null;
  medal: number;
  hidden: number;
  timestamp: string;
  mapRecordId: string;
  replayPath: string | null;
  /** As the service names it, e.g. `TrackMania\\TM_Stunt`. */
  mapType: string;
  hasClones: boolean;
  /** The map's medal scores, as stored. */
  medals: MedalScores;
  /** The world position stored for the record, the score it was asked for and when; null without one. */
  position: number | null;
  positionScore: number | null;
  positionAsOf: string | null;
}

/** The record of a row as the shared rules read it. */
function recordOf(row: ExportRow) {
  return { hidden: row.hidden === 1, time: row.time, score: row.score, respawnCount: row.respawnCount, medal: row.medal, timestamp: row.timestamp };
}

/**
 * Each row's rank among the rows of its map and scope (the players exported), by the shared rule every view ranks a
 * stored map with (rankStoredBoard: the map's medal scores, the reader, the stored positions): what the rank cell
 * holds, worked out over the whole sample at once.
 */
export function ranksOf(rows: readonly ExportRow[], viewer?: string | null): Map<ExportRow, string> {
  const groups = new Map<string, ExportRow[]>();
  for (const row of rows) {
    const key = `${row.mapKey}\u0000${row.scope}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const ranks = new Map<ExportRow, string>();
  for (const group of groups.values()) {
    const { mapType, hasClones, medals } = group[0]!;
    const contenders = group.map((r) => ({
      player: r, accountId: r.accountId, name: '', record: recordOf(r),
      position: r.position === null || r.positionScore === null ? null : { score: r.positionScore, state: 'ranked', position: r.position, asOf: r.positionAsOf ?? '' },
    }));
    for (const s of rankStoredBoard({ mapType, hasClones, medals }, contenders, viewer).entries) ranks.set(s.player, formatRank(s.rankRange));
  }
  return ranks;
}

/** The export's order: map by map, then player, then scope (as SQLite orders text: by its UTF-8 bytes). */
export function inExportOrder(rows: readonly ExportRow[]): ExportRow[] {
  return [...rows].sort((a, b) => a.mapKey - b.mapKey || a.playerKey - b.playerKey || Buffer.compare(Buffer.from(a.scope), Buffer.from(b.scope)));
}

/**
 * The cells of one row, in CSV_COLUMNS order; numbers stay numbers, text is neutralised. A secret (hidden) record
 * has no time, score or respawn count (docs/game-rules.md): those cells stay empty.
 */
export function toCells(row: ExportRow, names: NameCache, rank: string): (string | number)[] {
  const hidden = row.hidden === 1;
  const kind = mapKind({ mapType: row.mapType });
  const worldScore = worldScoreOf(kind, recordOf(row));
  return [
    neutraliseFormula(row.mapUid),
    neutraliseFormula(row.mapId),
    names.map(row.mapName),
    neutraliseFormula(row.accountId),
    names.player(playerLabel(row)),
    neutraliseFormula(row.gameMode),
    neutraliseFormula(row.scope),
    hidden || row.time === null ? '' : row.time,
    hidden ? '' : row.score,
    hidden ? '' : (row.respawnCount ?? ''),
    row.medal,
    hidden ? 'true' : 'false',
    neutraliseFormula(row.timestamp),
    neutraliseFormula(row.mapRecordId),
    row.replayPath === null ? '' : neutraliseFormula(row.replayPath),
    neutraliseFormula(formatResult(kind, recordOf(row))),
    medalName(row.medal),
    rank,
    row.position !== null && worldScore !== null && worldScore === row.positionScore ? row.position : '',
  ];
}
