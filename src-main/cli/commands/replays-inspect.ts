// `replays inspect FILE...`: reads ghost and replay files with the Gbx reader (core/gbx, docs/gbx.md) and prints what
// each run holds; a file that cannot be read is one line on stderr and the others still print.
import { open } from 'node:fs/promises';
import { GBX_LIMITS, GbxError, readGbx, type GbxContent, type GbxErrorCode, type GhostRun } from '../../core/gbx/index.ts';
import { formatScore, formatTime } from '../../shared/format.ts';
import { terminalSafe } from '../errors.ts';
import { plainName, type Output } from '../output.ts';

export interface InspectedFile {
  file: string;
  content: GbxContent;
}

/** What the player can do about a file, by what is wrong with it. */
const ADVICE: Record<GbxErrorCode, string> = {
  empty: 'pick a .Ghost.Gbx or .Replay.Gbx file',
  'not-gbx': 'pick a .Ghost.Gbx or .Replay.Gbx file',
  unsupported: 'pick a .Ghost.Gbx or .Replay.Gbx file from Trackmania (2020) or ManiaPlanet',
  truncated: 'the file is incomplete; download or save it again',
  'too-large': 'this is not a ghost or replay the game writes',
  corrupt: 'the file is damaged; download or save it again',
};

/** The file's bytes, refusing a folder or a file larger than any ghost or replay before reading it. */
async function readBounded(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new InspectError('is a folder, not a file');
    if (info.size > GBX_LIMITS.fileBytes) throw new InspectError(`is ${info.size} bytes, larger than any ghost or replay (at most ${GBX_LIMITS.fileBytes} read)`);
    const bytes = new Uint8Array(info.size);
    const { bytesRead } = await handle.read(bytes, 0, info.size, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

class InspectError extends Error {}

function failureLine(error: unknown): string {
  if (error instanceof GbxError) return `${error.message}; ${ADVICE[error.code]}`;
  if (error instanceof InspectError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be opened (permission denied)';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (typeof code === 'string') return `cannot be read (${code})`;
  throw error;
}

/** Reads every file; each one that fails is said on stderr at once, in one line. */
export async function inspectFiles(out: Output, files: readonly string[]): Promise<{ read: InspectedFile[]; failed: number }> {
  const read: InspectedFile[] = [];
  let failed = 0;
  for (const file of files) {
    try {
      read.push({ file, content: readGbx(await readBounded(file)) });
    } catch (error) {
      failed++;
      out.note(`trackwatch: ${terminalSafe(file)}: ${terminalSafe(failureLine(error))}`);
    }
  }
  return { read, failed };
}

/** The `--json` shape (README, "replays inspect --json"). */
function asJson(files: InspectedFile[]): unknown {
  return {
    files: files.map(({ file, content }) => ({
      file,
      class: content.kind,
      mapUid: content.mapUid,
      laps: content.laps,
      ghosts: content.ghosts.map((g) => ({
        name: g.name,
        raceTime: g.raceTime,
        respawns: g.respawns,
        stuntScore: g.stuntScore,
        checkpoints: g.checkpoints,
        checkpointStuntScores: g.checkpointStuntScores,
      })),
    })),
  };
}

/** Time since the previous checkpoint (the start for the first); null when either time is missing. */
function sectors(times: readonly (number | null)[]): (number | null)[] {
  return times.map((t, i) => {
    const before = i === 0 ? 0 : times[i - 1];
    return t === null || before === null || before === undefined ? null : t - before;
  });
}

function ghostLines(out: Output, ghost: GhostRun): void {
  const stunts = ghost.checkpointStuntScores.some((s) => s !== null && s !== 0) || (ghost.stuntScore ?? 0) !== 0;
  const facts = [
    out.colours.bold(plainName(ghost.name) || 'unnamed'),
    formatTime(ghost.raceTime),
    `respawns ${ghost.respawns ?? '-'}`,
    ...(stunts ? [`stunt score ${formatScore(ghost.stuntScore)}`] : []),
    `${ghost.checkpoints.length} checkpoint${ghost.checkpoints.length === 1 ? '' : 's'}`,
  ];
  out.line(`  ${facts.join('  ')}`);
  if (ghost.checkpoints.length === 0) return;
  const sector = sectors(ghost.checkpoints);
  const rows = ghost.checkpoints.map((t, i) => [
    String(i + 1),
    formatTime(t),
    sector[i] === null ? '' : formatTime(sector[i]),
    ...(stunts ? [formatScore(ghost.checkpointStuntScores[i])] : []),
  ]);
  const head = ['CP', 'time', 'sector', ...(stunts ? ['stunt score'] : [])];
  out.line(out.table(head, rows, { compact: true, align: ['right', 'right', 'right', 'right'] }).replace(/^/gm, '    '));
}

/** A replay's map says its laps; a ghost file holds no map, so nothing is said of it. */
function lapsText(content: GbxContent): string {
  if (content.kind === 'ghost') return '';
  if (content.laps === null) return `, laps unknown (${terminalSafe(content.lapsUnknown ?? 'the map does not say')})`;
  return content.laps === 1 ? ', not a lap race' : `, ${content.laps} laps`;
}

export function printInspection(out: Output, files: InspectedFile[], json: boolean): void {
  if (json) return out.json(asJson(files));
  for (const { file, content } of files) {
    const map = content.mapUid === null ? 'map unknown' : `map ${terminalSafe(content.mapUid)}`;
    out.line(`${terminalSafe(file)}: ${content.kind === 'ghost' ? 'ghost' : `replay of ${content.ghosts.length} ghost${content.ghosts.length === 1 ? '' : 's'}`}, ${map}${lapsText(content)}`);
    for (const ghost of content.ghosts) ghostLines(out, ghost);
  }
}
