// Where the game looks for replays, per OS, and a safe file name for a replay copied there.
import path from 'node:path';
import { stripFormatting } from '../shared/format.ts';

/** Trackmania's Steam app, whose Proton prefix holds the game's Documents on Linux. */
const STEAM_APP_ID = '2225070';

/**
 * The game's replay folder: `Documents/Trackmania/Replays` on Windows (and under macOS compatibility layers), inside
 * the Steam Proton prefix on Linux. Players with another setup change it in Settings.
 */
export function defaultGameReplayFolder(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv = {}): string {
  if (platform === 'win32') {
    const profile = env.USERPROFILE || home;
    return path.win32.join(profile, 'Documents', 'Trackmania', 'Replays');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Documents', 'Trackmania', 'Replays');
  return path.posix.join(home, '.steam', 'steam', 'steamapps', 'compatdata', STEAM_APP_ID, 'pfx', 'drive_c', 'users', 'steamuser', 'Documents', 'Trackmania', 'Replays');
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
