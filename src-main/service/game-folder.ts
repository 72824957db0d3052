// Where the game looks for replays, per OS, and a safe file name for a replay copied there.
import path from 'node:path';
import { stripFormatting } from '../shared/format.ts';

/** Trackmania's Steam app, whose Proton prefix holds the game's Documents on Linux. */
const STEAM_APP_ID = '2225070';

/** The game's own folder under Documents (docs/game-rules.md, "The game's folders"). */
const GAME_FOLDER = 'Trackmania';

/** Where Steam keeps its libraries on Linux: the usual link, the real folder, and the Flatpak's. */
const STEAM_ROOTS = [['.steam', 'steam'], ['.local', 'share', 'Steam'], ['.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam']];

/**
 * Every Documents folder the game may use on this OS, most likely first: the profile's (and OneDrive's, which
 * Windows often moves Documents into) on Windows; ~/Documents on macOS (the game runs there under a compatibility
 * layer); the Steam Proton prefix (each Steam root) and a plain Wine prefix on Linux.
 */
function documentsFolders(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'win32') {
    const profile = env.USERPROFILE || home;
    return [path.win32.join(profile, 'Documents'), ...(env.OneDrive ? [path.win32.join(env.OneDrive, 'Documents')] : []), path.win32.join(profile, 'OneDrive', 'Documents')];
  }
  if (platform === 'darwin') return [path.posix.join(home, 'Documents')];
  const proton = STEAM_ROOTS.map((root) => path.posix.join(home, ...root, 'steamapps', 'compatdata', STEAM_APP_ID, 'pfx', 'drive_c', 'users', 'steamuser', 'Documents'));
  const user = env.USER || env.LOGNAME || path.posix.basename(home);
  return [...proton, path.posix.join(home, '.wine', 'drive_c', 'users', user, 'Documents')];
}

/** Where the game's replay folder may be on this OS, most likely first: `<game folder>/Replays`. */
export function gameReplayFolderCandidates(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv = {}): string[] {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return documentsFolders(platform, home, env).map((documents) => join(documents, GAME_FOLDER, 'Replays'));
}

/**
 * The game's replay folder: the first candidate whose game folder exists (the game made it: it is installed), else
 * undefined. Nothing is created by looking.
 */
export function findGameReplayFolder(candidates: readonly string[], exists: (folder: string) => boolean): string | undefined {
  return candidates.find((replays) => exists(path.dirname(replays)));
}

/**
 * The game's replay folder as Settings shows it by default: the one found on this computer, else the most likely
 * place for this OS. Players with another setup change it in Settings.
 */
export function defaultGameReplayFolder(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv = {}, exists: (folder: string) => boolean = () => false): string {
  const candidates = gameReplayFolderCandidates(platform, home, env);
  return findGameReplayFolder(candidates, exists) ?? candidates[0]!;
}

/** Letters, digits and a few marks; the rest becomes `_`. Never empty, never a path. */
function safePart(text: string, max: number): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[^\w .()'-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[\s._-]+|[\s._-]+$/g, '')
    .slice(0, max);
  return cleaned || 'replay';
}

/**
 * `<map>_<player>_<result>.Replay.Gbx`, the way the game names its own, built only from cleaned text: names lose
 * their formatting codes first, so no colour code is left behind as text (`$f80Summer` is `Summer`, not `_f80Summer`).
 */
export function replayCopyName(mapName: string, playerName: string, result: string): string {
  return `${safePart(stripFormatting(mapName), 60)}_${safePart(stripFormatting(playerName), 30)}_${safePart(result, 32)}.Replay.Gbx`;
}
