// What a run's summary tells of the store beside its own counts (the replays it failed, those given up on), read
// inside the run, before its row is closed: a damaged page met here fails the run like any other local fault, so the
// run never ends "ok" and is then followed by "damaged" (issue 17 §1.7).
import { MAX_REPLAY_ATTEMPTS, type ReplayEntry, type Store } from '../store/index.ts';

export interface RunReport {
  /** Replays whose download failed in this run and that the next sync asks for again, in the store's order. */
  failedReplays: ReplayEntry[];
  /** Replays (of every list) that failed MAX_REPLAY_ATTEMPTS times and are no longer asked for. */
  replaysGivenUp: number;
}

export const EMPTY_REPORT: RunReport = { failedReplays: [], replaysGivenUp: 0 };

export function readReport(store: Store, runId: number, list: string | undefined, replaysFailed: number): RunReport {
  let failedReplays: ReplayEntry[] = [];
  if (replaysFailed > 0) {
    const since = store.syncRuns.get(runId)?.startedAt ?? '';
    failedReplays = store.replays.failedSince(since, list === undefined ? {} : { list }, MAX_REPLAY_ATTEMPTS);
  }
  return { failedReplays, replaysGivenUp: store.replays.givenUp() };
}
