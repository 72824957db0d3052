// The sync's progress bar against its summary (issue 17 §2.10): after Ctrl-C the bar says it is stopping, and the
// run's closing report never draws a full "done" bar right before a summary that says "cancelled".
import { describe, expect, it } from 'vitest';
import { barFrame } from '../../../src-main/cli/commands/sync.ts';
import type { SyncProgress } from '../../../src-main/core/sync/engine.ts';

const progress = (over: Partial<SyncProgress>): SyncProgress => ({
  runId: 1, phase: 'replays', mapsDone: 40, mapsTotal: 40, requests: 114, replaysDone: 26, replaysTotal: 277, newRecords: 250, newPersonalBests: 0, errors: 0, etaMs: 80_000, ...over,
});

describe('the sync progress bar', () => {
  it('counts the phase under way: replays by replays, the others by maps', () => {
    expect(barFrame(progress({}), false)).toEqual({ value: 26, total: 277, payload: { phase: 'replays ', requests: 114, pbs: 250, errors: '', left: '1m20s' } });
    expect(barFrame(progress({ phase: 'records', mapsDone: 12, errors: 2 }), false)).toMatchObject({ value: 12, total: 40, payload: { phase: 'records ', errors: ' | 2 errors' } });
    // A phase with nothing to count yet still draws a bar.
    expect(barFrame(progress({ phase: 'maps', mapsDone: 0, mapsTotal: 0 }), false)).toMatchObject({ value: 0, total: 1 });
  });

  it('says "stopping" once Ctrl-C is pressed, with the counts the summary will give and no time left', () => {
    const frame = barFrame(progress({}), true)!;
    expect(frame.payload).toMatchObject({ phase: 'stopping', requests: 114, pbs: 250, left: '-' });
    expect([frame.value, frame.total]).toEqual([26, 277]);
  });

  it('draws nothing for the closing report: no full bar reading as finished before the summary', () => {
    expect(barFrame(progress({ phase: 'done', replaysDone: 26 }), true)).toBeNull();
    expect(barFrame(progress({ phase: 'done' }), false)).toBeNull();
  });
});
