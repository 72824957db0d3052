import { describe, expect, it } from 'vitest';
import { formatMedalValue } from '../../../src-renderer/lib/format.ts';

describe('medal scores in their map\'s unit', () => {
  it('times on Race maps, points on Stunt maps, respawns on Platform maps', () => {
    expect(formatMedalValue(75_198, { isStunt: false, mapType: 'TrackMania\\TM_Race' })).toBe('1:15.198');
    expect(formatMedalValue(7005, { isStunt: true, mapType: 'TrackMania\\TM_Stunt' })).toBe('7,005');
    expect(formatMedalValue(3, { isStunt: false, mapType: 'TrackMania\\TM_Platform' })).toBe('3 respawns');
    expect(formatMedalValue(1, { isStunt: false, mapType: 'TrackMania\\TM_Platform' })).toBe('1 respawn');
  });
});
