// Reads a downloaded replay file's splits for the record it is of (docs/gbx.md): loaded lazily (await import) by the
// sync and the backfill, so a start that reads nothing never loads the Gbx reader.
import { GbxError, readGbx, type GhostRun } from '../gbx/index.ts';
import { splitsProblem } from '../../shared/splits.ts';
import type { SplitsRead } from '../store/splits.ts';

export { SPLITS_READER_VERSION } from './version.ts';

export interface RecordOfReplay {
  accountId: string | null;
  /** The record's time (ms) and Stunt score, to find its ghost among several. */
  time: number | null;
  score: number | null;
}

export type { SplitsRead } from '../store/splits.ts';

/** An account ID as the game writes it as a login (chunk 0x0309200F): its 16 bytes in base64url, no padding. */
export function loginOf(accountId: string): string | null {
  const hex = accountId.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  return Buffer.from(hex, 'hex').toString('base64url');
}

/**
 * The record's ghost among a file's: a replay holds one per run it replays. The one whose login is the record's
 * player's wins, else the one whose time (or Stunt score) is the record's, else the only ghost; several candidates
 * and none matching is said, never guessed.
 */
export function recordGhost(ghosts: readonly GhostRun[], record: RecordOfReplay): number | string {
  if (ghosts.length === 0) return 'the file holds no ghost';
  const login = record.accountId === null ? null : loginOf(record.accountId);
  const byLogin = login === null ? -1 : ghosts.findIndex((g) => g.login === login);
  if (byLogin >= 0) return byLogin;
  const byResult = ghosts.findIndex((g) => (record.time !== null && (g.raceTime === record.time || g.checkpoints.at(-1) === record.time))
    || (record.score !== null && record.score > 0 && g.stuntScore === record.score));
  if (byResult >= 0) return byResult;
  if (ghosts.length === 1) return 0;
  return `the file holds ${ghosts.length} ghosts and none is this record's (its player's login or its time)`;
}

/** Never throws: a file that cannot be read is a result too, with the reader's one line. */
export function readSplits(bytes: Uint8Array, record: RecordOfReplay): SplitsRead {
  try {
    const content = readGbx(bytes);
    const picked = recordGhost(content.ghosts, record);
    if (typeof picked === 'string') return { state: 'unreadable', errorCode: 'no-ghost', error: picked };
    const ghost = content.ghosts[picked]!;
    const problem = splitsProblem(ghost.checkpoints);
    if (problem !== null) return { state: 'unreadable', errorCode: 'bad-splits', error: problem };
    return {
      state: 'read',
      ghostIndex: picked,
      ghostName: ghost.name,
      raceTime: ghost.raceTime,
      respawns: ghost.respawns,
      stuntScore: ghost.stuntScore,
      checkpoints: ghost.checkpoints,
      stuntScores: ghost.checkpointStuntScores,
      // The map's, from the map a replay embeds (docs/gbx.md "Laps"); null for a ghost file, which holds no map.
      laps: content.laps,
    };
  } catch (error) {
    if (error instanceof GbxError) return { state: 'unreadable', errorCode: error.code, error: error.message };
    return { state: 'unreadable', errorCode: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}
