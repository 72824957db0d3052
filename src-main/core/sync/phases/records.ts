// Records: one map at a time per worker, every watched player in as few requests as the URI allows; the personal
// bests and each season asked for. A map's records and its replays' states are written in one commit.
import { AbortError } from '../../nadeo/index.ts';
import { medalName } from '../../../shared/format.ts';
import { contradictedMedal, formatResult, mapKind, medalScores } from '../../../shared/leaderboard.ts';
import type { PlayerRecord } from '../../model.ts';
import { PERSONAL_BEST } from '../../store/index.ts';
import type { HistoryRow, StoredMap } from '../../store/types.ts';
import { forEachItem, type Phase, type SyncContext } from '../context.ts';
import type { NewPersonalBest } from '../types.ts';

export const recordsPhase: Phase = {
  name: 'records',
  planned: (ctx) => ctx.plan?.recordRequests ?? 0,
  left(ctx) {
    const { plan, run } = ctx;
    // The plan's requests per map: the players' batches times the scopes asked.
    const perMap = plan && plan.maps > 0 ? plan.recordRequests / plan.maps : 1;
    return (run.mapsTotal - run.mapsDone) * perMap;
  },
  async run(ctx: SyncContext): Promise<void> {
    const { store, failures, run, options } = ctx;
    run.phase = 'records';
    const maps = store.maps.list(ctx.list);
    const watched = store.players.list(ctx.list);
    run.players = watched.map((p) => p.accountId);
    // Names as they stand for this phase (display names are fetched after it): one query, not one per new record.
    const names = new Map(watched.map((p) => [p.accountId, p.name]));
    run.mapsTotal = maps.length;
    const scopes = [PERSONAL_BEST, ...(options.seasonIds ?? [])];
    run.progress();
    if (failures.stopping) throw new AbortError('The sync was stopped.');
    if (run.players.length === 0) {
      run.mapsDone = run.mapsTotal; // nothing to ask for: no watched players
      return;
    }
    run.mapsSkipped = await forEachItem(ctx, maps, {
      work: async (map, signal) => {
        for (const scope of scopes) await readScope(ctx, map, scope, names, signal);
        run.mapsOk += 1;
      },
      onError: (map, error) => failures.fail(map.mapId, error, ctx.hosts.api),
      after: () => {
        run.mapsDone += 1;
        run.progress();
      },
    });
    // Which account read them: its own records are never hidden, which the ranks read (docs/game-rules.md).
    if (run.mapsOk > 0) store.settings.setViewer(ctx.client.viewer());
  },
};

/** One map's records in one scope (personal bests, or a season): fetched, then stored with their replays' states. */
async function readScope(ctx: SyncContext, map: StoredMap, scope: string, names: ReadonlyMap<string, string>, signal: AbortSignal): Promise<void> {
  const { store, client, failures, run } = ctx;
  const holder = scope === PERSONAL_BEST ? worldRecordHolderToAsk(ctx, map) : undefined;
  const fetched = await client.getRecords(map, holder === undefined ? run.players : [...run.players, holder], {
    signal,
    ...(scope === PERSONAL_BEST ? {} : { seasonId: scope }),
  });
  failures.answered();
  // The WR holder's record is stored like any record (its replay is the WR's ghost) but is not a watched player's:
  // it is neither counted nor announced, the holder joins no list, and the store keeps it out of the history.
  const holderRecord = holder === undefined ? undefined : fetched.records.find((r) => r.accountId.toLowerCase() === holder);
  const watched = (accountId: string): boolean => holder === undefined || accountId.toLowerCase() !== holder;
  run.records += fetched.records.length - (holderRecord ? 1 : 0);
  // Records the service sent with values out of range are left out, each said once; the rest of the map is kept.
  for (const r of fetched.rejected) {
    run.addError({ mapId: map.mapId, message: `a record${r.accountId ? ` of ${names.get(r.accountId) ?? r.accountId}` : ''} was left out: ${r.reason}` });
  }
  const records = withTrueMedals(ctx, map, fetched.records, names);
  // The map's records and its replays' states in one commit: a hidden record's replay waits with it, and a record
  // that shows (a secret threshold lifted) or changed has its replay due again.
  const applied = store.transaction(() => {
    const result = store.records.applyRecords({
      mapId: map.mapId, scope, records, seenAt: ctx.now().toISOString(), syncRunId: run.runId,
      ...(holder === undefined ? {} : { beside: [holder] }),
    });
    for (const r of result.newRecords) {
      if (r.hidden || r.time === null) store.replays.markHidden(r);
      else store.replays.requeue(r);
    }
    if (holderRecord && holder !== undefined) store.worldRecords.setHolderRecord(map.mapId, holder, holderRecord.mapRecordId);
    return result;
  });
  if (scope === PERSONAL_BEST) {
    const improvements = applied.improvements.filter((h) => watched(h.accountId));
    announce(map, improvements, (accountId) => names.get(accountId) ?? accountId, ctx.options.onNewPersonalBest);
    run.newRecords += improvements.length;
    run.newPersonalBests += improvements.filter((h) => h.kind !== 'first').length;
  }
}

/**
 * The records with the medal their result earns by the map's medal scores where the service's medal contradicts
 * them (shared contradictedMedal); each contradiction is said once, so a wrong medal is neither stored nor shown.
 */
function withTrueMedals(ctx: SyncContext, map: StoredMap, records: readonly PlayerRecord[], names: ReadonlyMap<string, string>): PlayerRecord[] {
  const kind = mapKind(map);
  const medals = medalScores(map);
  return records.map((r) => {
    const medal = contradictedMedal(kind, r, medals);
    if (medal === null) return r;
    ctx.run.addError({
      mapId: map.mapId,
      message: `the service gave ${names.get(r.accountId) ?? r.accountId}'s record (${formatResult(kind, r)}) the ${medalName(r.medal)} medal, which the map's medal scores contradict; kept as ${medalName(medal)}`,
    });
    return { ...r, medal };
  });
}

/**
 * The map's visible WR holder to ask along with the watched players, when the world-records phase found one who is
 * not watched and one more account still fits the same requests (the URI limit); else undefined, and a holder that
 * does not fit is said once per map instead of costing a request.
 */
function worldRecordHolderToAsk(ctx: SyncContext, map: StoredMap): string | undefined {
  const { run, client } = ctx;
  const holder = run.worldRecordHolders.get(map.mapId);
  if (holder === undefined || run.players.some((p) => p.toLowerCase() === holder)) return undefined;
  const summary = run.worldRecordsSummary();
  const fits = client.recordRequests !== undefined && client.recordRequests(map, [...run.players, holder]) <= client.recordRequests(map, run.players);
  if (!fits) {
    summary.ghostsSkipped += 1;
    return undefined;
  }
  summary.ghostsAsked += 1;
  return holder;
}

function announce(
  map: StoredMap,
  improvements: readonly HistoryRow[],
  nameOf: (accountId: string) => string,
  onNewPersonalBest?: (event: NewPersonalBest) => void,
): void {
  if (!onNewPersonalBest) return;
  const kind = mapKind(map);
  for (const row of improvements) {
    const before = row.kind === 'first' ? null : { hidden: row.kind === 'unhidden', time: row.oldTime, score: row.oldScore, respawnCount: row.oldRespawnCount };
    onNewPersonalBest({
      mapId: map.mapId, mapUid: map.mapUid, mapName: map.name, accountId: row.accountId,
      playerName: nameOf(row.accountId), kind: row.kind, mapKind: kind,
      result: { hidden: row.hidden, time: row.newTime, score: row.newScore, respawnCount: row.newRespawnCount },
      previous: before, recordTimestamp: row.recordTimestamp,
    });
  }
}
