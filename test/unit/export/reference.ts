// The CSV export's reference mapping, the oracle its fast writer (core/export/csv.ts CsvWriter) is held to: one row in
// the friendly form, turned into cells csv-stringify then encodes whole. Written for the tests; the product writes
// through CsvWriter alone.
import { NameCache, neutraliseFormula } from '../../../src-main/core/export/csv.ts';
import { medalName } from '../../../src-main/shared/format.ts';
import { formatRank, formatResult, mapKind, playerLabel, rankLeaderboard, worldScoreOf } from '../../../src-main/shared/leaderboard.ts';

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
  /** The world position stored for the record, and the score it was asked for; null without one. */
  position: number | null;
  positionScore: number | null;
}

/** The record of a row as the shared rules read it. */
function recordOf(row: ExportRow) {
  return { hidden: row.hidden === 1, time: row.time, score: row.score, respawnCount: row.respawnCount, medal: row.medal, timestamp: row.timestamp };
}

/**
 * Each row's rank among the rows of its map and scope (the players exported), by the shared rule: what the rank cell
 * holds, worked out over the whole sample at once.
 */
export function ranksOf(rows: readonly ExportRow[]): Map<ExportRow, string> {
  const groups = new Map<string, ExportRow[]>();
  for (const row of rows) {
    const key = `${row.mapKey}\u0000${row.scope}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const ranks = new Map<ExportRow, string>();
  for (const group of groups.values()) {
    const kind = mapKind({ mapType: group[0]!.mapType });
    for (const s of rankLeaderboard(kind, group.map((r) => ({ player: r, name: '', record: recordOf(r) }))).entries) ranks.set(s.player, s.status === 'secret' ? '' : formatRank(s.rankRange));
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
