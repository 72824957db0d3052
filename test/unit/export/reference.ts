// The CSV export's reference mapping, the oracle its fast writer (core/export/csv.ts CsvWriter) is held to: one row in
// the friendly form, turned into cells csv-stringify then encodes whole. Written for the tests; the product writes
// through CsvWriter alone.
import { NameCache, neutraliseFormula } from '../../../src-main/core/export/csv.ts';
import { playerLabel } from '../../../src-main/shared/leaderboard.ts';

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
}

/**
 * The cells of one row, in CSV_COLUMNS order; numbers stay numbers, text is neutralised. A secret (hidden) record
 * has no time, score or respawn count (docs/game-rules.md): those cells stay empty.
 */
export function toCells(row: ExportRow, names: NameCache): (string | number)[] {
  const hidden = row.hidden === 1;
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
  ];
}
