// A replay copied into the game's folder gets a name a player can read: no formatting-code leftovers, never a path.
import { describe, expect, it } from 'vitest';
import { defaultGameReplayFolder, findGameReplayFolder, gameReplayFolderCandidates, replayCopyName } from '../../../src-main/service/game-folder.ts';

describe('replay copy names', () => {
  it('strips formatting codes from map and player names, whatever their shape', () => {
    expect(replayCopyName('$i$a1bLaser $fff- Race', '$f80SummerIce948', "1'29''273")).toBe("Laser - Race_SummerIce948_1'29''273.Replay.Gbx");
    expect(replayCopyName('$o$wBold', '$f00Red$z Baron', '7117pts')).toBe('Bold_Red Baron_7117pts.Replay.Gbx');
    expect(replayCopyName('$$Cash $0fTwo digits', '$l[https://x.example]Linked$l name', "0'45''100")).toBe("Cash Two digits_Linked name_0'45''100.Replay.Gbx");
    // A Platform result keeps its time beside the respawns, even a long run's.
    expect(replayCopyName('Plat', 'P', "12 respawns (10'05'120)")).toBe("Plat_P_12 respawns (10'05'120).Replay.Gbx");
  });

  it('never makes a path, and never an empty part', () => {
    expect(replayCopyName('../../etc/passwd', '..\\..\\evil', 'x/y')).toBe('etc_passwd_evil_x_y.Replay.Gbx');
    expect(replayCopyName('$f00', '   ', '')).toBe('replay_replay_replay.Replay.Gbx');
  });

  it('knows the game\'s folder per OS', () => {
    expect(defaultGameReplayFolder('win32', 'C:\\Users\\p', { USERPROFILE: 'C:\\Users\\p' })).toBe('C:\\Users\\p\\Documents\\Trackmania\\Replays');
    expect(defaultGameReplayFolder('linux', '/home/p')).toContain('/compatdata/2225070/pfx/');
  });

  it('looks where the game keeps its folder on each OS: Windows Documents and OneDrive, macOS Documents, Proton and Wine prefixes', () => {
    const windows = gameReplayFolderCandidates('win32', 'C:\\Users\\p', { USERPROFILE: 'C:\\Users\\p', OneDrive: 'D:\\OneDrive' });
    expect(windows).toContain('C:\\Users\\p\\Documents\\Trackmania\\Replays');
    expect(windows).toContain('D:\\OneDrive\\Documents\\Trackmania\\Replays');
    expect(gameReplayFolderCandidates('darwin', '/Users/p')[0]).toBe('/Users/p/Documents/Trackmania/Replays');
    const linux = gameReplayFolderCandidates('linux', '/home/p', { USER: 'p' });
    expect(linux[0]).toBe('/home/p/.steam/steam/steamapps/compatdata/2225070/pfx/drive_c/users/steamuser/Documents/Trackmania/Replays');
    expect(linux).toContain('/home/p/.local/share/Steam/steamapps/compatdata/2225070/pfx/drive_c/users/steamuser/Documents/Trackmania/Replays');
    expect(linux).toContain('/home/p/.var/app/com.valvesoftware.Steam/.local/share/Steam/steamapps/compatdata/2225070/pfx/drive_c/users/steamuser/Documents/Trackmania/Replays');
    expect(linux).toContain('/home/p/.wine/drive_c/users/p/Documents/Trackmania/Replays');
  });

  it('finds the game by its own folder (the Replays folder in it may not exist yet), and nothing when it is not there', () => {
    const linux = gameReplayFolderCandidates('linux', '/home/p', { USER: 'p' });
    const flatpak = linux.find((c) => c.includes('/.var/app/'))!;
    const asked: string[] = [];
    const exists = (folder: string): boolean => (asked.push(folder), folder === flatpak.slice(0, -'/Replays'.length));
    expect(findGameReplayFolder(linux, exists)).toBe(flatpak);
    expect(asked.every((f) => !f.endsWith('/Replays'))).toBe(true);
    expect(findGameReplayFolder(linux, () => false)).toBeUndefined();
    expect(defaultGameReplayFolder('linux', '/home/p', { USER: 'p' }, exists)).toBe(flatpak);
  });
});
