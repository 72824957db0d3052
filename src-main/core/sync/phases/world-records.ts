// World records (Live top route, one request per map): after the maps, before the records, so that each map's WR
// holder can ride in that map's records request (records.ts) and the WR's ghost costs no request of its own. Only
// for the maps of lists whose "world record" setting is on; not asked with world records off for the sync.
import { prefixed } from '../failures.ts';
import { forEachItem, type Phase, type SyncContext } from '../context.ts';
import { worldRecordMaps, worldRecordProblem } from '../world-records.ts';

function wanted(ctx: SyncContext): boolean {
  return ctx.deps.worldRecord !== undefined && ctx.options.worldRecords !== false;
}

export const worldRecordsPhase: Phase = {
  name: 'worldRecords',
  planned: (ctx) => (wanted(ctx) ? ctx.plan?.worldRecordRequests ?? 0 : 0),
  left: (ctx) => ctx.run.worldRecordsLeft,
  async run(ctx: SyncContext): Promise<void> {
    const { deps, store, failures, run } = ctx;
    const ask = deps.worldRecord;
    if (!ask || !wanted(ctx) || failures.stopping) return;
    const maps = worldRecordMaps(store, ctx.list);
    if (maps.length === 0) return;
    const summary = run.worldRecordsSummary();
    run.worldRecordsLeft = maps.length;
    await forEachItem(ctx, maps, {
      work: async (map, signal) => {
        summary.asked += 1;
        const wr = await ask(map.mapUid, signal);
        const readAt = ctx.now().toISOString();
        if (wr === null) {
          summary.empty += 1;
          return;
        }
        const problem = worldRecordProblem(wr, map, ctx.now().getTime());
        if (problem !== undefined) {
          // Left out like a record out of range: said with the reason, nothing stored, the stored WR kept.
          summary.rejected += 1;
          run.addError({ mapId: map.mapId, message: `the world record the service gave was left out: ${problem}` });
          return;
        }
        const accountId = wr.accountId.toLowerCase();
        store.worldRecords.save([{ mapId: map.mapId, accountId, score: wr.score, setAt: wr.setAt, readAt }]);
        if (wr.score === null) summary.secret += 1;
        else {
          summary.found += 1;
          // A secret WR's ghost cannot be watched (docs/nadeo-api.md "Top Secret"): only a visible one is asked for.
          run.worldRecordHolders.set(map.mapId, accountId);
        }
      },
      onError: (map, error) => failures.fail(map.mapId, prefixed('could not read the world record', error), ctx.hosts.live),
      after: () => {
        run.worldRecordsLeft -= 1;
        run.progress();
      },
      hostOf: () => ctx.hosts.live,
    });
  },
};
