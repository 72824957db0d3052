// A replay copied into the game's folder gets a name a player can read: no formatting-code leftovers, never a path.
import { describe, expect, it } from 'vitest';
import { defaultGameReplayFolder, replayCopyName } from '../../../src-main/service/game-folder.ts';

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
});
