import { describe, expect, it } from 'vitest';
import { formatMedalScore, mapKind } from '../../../src-main/shared/leaderboard.ts';

describe('medal scores in their map\'s unit (the list view shows them through the shared rule)', () => {
  it('times on Race maps, points on Stunt maps, respawns on Platform maps', () => {
    expect(formatMedalScore(mapKind({ mapType: 'TrackMania\\TM_Race' }), 75_198)).toBe('1:15.198');
    expect(formatMedalScore(mapKind({ mapType: 'TrackMania\\TM_Stunt' }), 7005)).toBe('7,005 pts');
    expect(formatMedalScore(mapKind({ mapType: 'TrackMania\\TM_Platform' }), 3)).toBe('3 respawns');
    expect(formatMedalScore(mapKind({ mapType: 'TrackMania\\TM_Platform' }), 1)).toBe('1 respawn');
  });
});
