// Replays: those of the synced lists' maps and players the lists' policies want (plan.ts replaysWanted), including
// what an interrupted sync left behind; never another list's. Each goes to its own host's budget and long wait.
import { isUnreachable, longWaitOf } from '../waits.ts';
import { messageOf } from '../failures.ts';
import { replaysWanted } from '../plan.ts';
import { fetchReplay } from '../replay-files.ts';
import { forEachItem, type Phase, type SyncContext } from '../context.ts';

export const replaysPhase: Phase = {
  name: 'replays',
  planned: (ctx) => (ctx.options.replays === false ? 0 : ctx.plan?.replayDownloads ?? 0),
  left: (ctx) => ctx.run.replaysTotal - ctx.run.replaysDone,
  async run(ctx: SyncContext): Promise<void> {
    const { store, failures, run, options } = ctx;
    if (options.replays === false) return;
    run.phase = 'replays';
    // Every due replay at once (a few small objects each), so progress and time left count them all.
    const pending = replaysWanted(store, { list: ctx.list, me: options.me });
    run.replaysTotal = pending.length;
    run.progress();
    await forEachItem(ctx, pending, {
      work: async (replay, signal) => {
        const state = await fetchReplay(ctx.deps, replay, signal);
        failures.answered();
        if (state === 'hidden') run.replaysHidden += 1;
        else run.replaysDownloaded += 1;
      },
      onError: (replay, error) => {
        const host = hostOf(replay.url);
        if (longWaitOf(error, host) || isUnreachable(error)) failures.fail(null, error, host);
        else {
          run.replaysFailed += 1;
          store.replays.markFailed(replay, messageOf(error));
        }
      },
      after: (cut) => {
        // A download the stop cut short is not done: the bar counts what the summary counts (issue 17 §2.10).
        if (!cut) run.replaysDone += 1;
        run.progress();
      },
      hostOf: (replay) => hostOf(replay.url) ?? ctx.hosts.api,
    });
  },
};

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
