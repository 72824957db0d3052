// The emulator's reading of the Live leaderboards' scores (emulator/rules.ts, from docs/live/leaderboards/position.md):
// the number a record ranks by, and which of two is ahead. The product's (shared/leaderboard.ts worldScoreOf) is
// tested in test/unit/shared/leaderboard.test.ts, with the scores it never asks about (none, or a secret entry's).
import { describe, expect, it } from 'vitest';
import { isBetterLiveScore, liveScoreOf } from '../../../src-main/emulator/rules.ts';

describe('Live leaderboard scores', () => {
  it('race and Platform rank by time (lower first), Stunt by points (higher first)', () => {
    expect(liveScoreOf('race', { time: 41234, score: 0 })).toBe(41234);
    expect(liveScoreOf('stunt', { time: 80000, score: 5120 })).toBe(5120);
    expect(liveScoreOf('platform', { time: 45000, score: 0 })).toBe(45000);
    expect(isBetterLiveScore('race', 40000, 40001)).toBe(true);
    expect(isBetterLiveScore('race', 40000, 40000)).toBe(false);
    expect(isBetterLiveScore('stunt', 5000, 4000)).toBe(true);
  });
});
