import { describe, expect, it } from 'vitest';
import { describeCost, describeDuration, type SyncPlan } from '../../../src-main/core/sync/plan.ts';

const plan = (over: Partial<SyncPlan>): SyncPlan => ({
  lists: ['Rivals'], maps: 26, players: 48, mapLookups: 0, recordRequests: 26, replayDownloads: 1250, requests: 1276,
  maxRps: 1, seconds: 1276, firstSync: true, large: true, ...over,
});

describe('the cost line before a sync', () => {
  it('says the requests and the time at the pace kept, as the issue words it', () => {
    expect(describeCost(plan({}))).toBe('about 26 record requests and 1,250 replay downloads, about 21 min at 1 request/s');
  });

  it('names map lookups when there are some, and other paces', () => {
    expect(describeCost(plan({ mapLookups: 1, recordRequests: 1, replayDownloads: 0, maxRps: 2, seconds: 1 }))).toBe(
      'about 1 record request, 1 map lookup and 0 replay downloads, under a minute at 2 requests/s',
    );
  });

  it.each([
    [59, 'under a minute'],
    [60, 'about 1 min'],
    [89 * 60, 'about 89 min'],
    [90 * 60, 'about 1.5 h'],
    [16 * 3600 + 500, 'about 16 h'],
  ])('%d s reads "%s"', (seconds, text) => {
    expect(describeDuration(seconds)).toBe(text);
  });
});
