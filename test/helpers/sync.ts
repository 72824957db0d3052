// Shared by the sync tests: a data folder per test, a canonical dump of a store, and the dataset's own truth.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dataset, DatasetMap, DatasetRecord } from '../../src-main/emulator/index.ts';
import type { Store } from '../../src-main/core/store/index.ts';

export async function tempDataDir(prefix = 'trackwatch-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Everything a sync writes, minus when it happened: two syncs of the same data must dump the same. */
export function dumpStore(store: Store): unknown {
  const q = (sql: string) => store.db.prepare(sql).all();
  return {
    maps: q(`SELECT map_id, map_uid, name, map_type, has_clones, author_score FROM maps ORDER BY map_id`),
    // Current records and every earlier version (the history) live in one table of record versions.
    records: q(`SELECT * FROM (SELECT m.map_id, p.account_id, r.* FROM records r JOIN maps m ON m.id = r.map_ref JOIN players p ON p.id = r.player_ref)
                ORDER BY map_id, account_id, scope, map_record_id, change`).map(stripVolatile),
    replays: q(`SELECT * FROM replays ORDER BY record_id`).map(stripVolatile),
  };
}

// Row IDs, clocks and the emulator's own address (a new port each run) differ between equal syncs.
const VOLATILE = /(^id$|_ref$|_at$|^sync_run_id$|^attempts$|^error$|^url$)/;
function stripVolatile(row: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row as Record<string, unknown>).filter(([k]) => !VOLATILE.test(k)));
}

/** The game mode the records lookup serves PBs in, from the seed's rules (4.2 rules 3-5), written independently. */
export function pbGameMode(map: DatasetMap): string {
  if (map.mapType.endsWith('TM_Stunt')) return 'Stunt';
  if (map.mapType.endsWith('TM_Platform')) return 'Platform';
  return map.hasClones ? 'TimeAttackClone' : 'TimeAttack';
}

/** Whether the service hides this record behind its map's secret threshold (seed 2.2): a time on every kind (map-page). */
export function isHiddenByThreshold(map: DatasetMap, record: DatasetRecord): boolean {
  const threshold = map.secretThreshold;
  if (threshold === undefined || threshold === null) return false;
  return record.recordScore.time < threshold;
}

/** The personal bests a sync of these maps and players must end up with, by `mapId/accountId`. */
export function expectedPersonalBests(dataset: Dataset, accountIds: ReadonlySet<string>): Map<string, { record: DatasetRecord; hidden: boolean }> {
  const maps = new Map(dataset.maps.map((m) => [m.mapId, m]));
  const out = new Map<string, { record: DatasetRecord; hidden: boolean }>();
  for (const record of dataset.records) {
    const map = maps.get(record.mapId);
    if (!map || record.scopeType !== 'PersonalBest' || !accountIds.has(record.accountId)) continue;
    if (record.gameMode !== pbGameMode(map)) continue;
    out.set(`${record.mapId}/${record.accountId}`, { record, hidden: isHiddenByThreshold(map, record) });
  }
  return out;
}

/** Files anywhere under `dir` whose names mark them as unfinished writes. */
export async function strayTempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.part') || n.endsWith('.tmp'));
}
