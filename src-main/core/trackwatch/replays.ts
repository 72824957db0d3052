// Replays one at a time: downloaded now on demand, and checked against their size and SHA-256 before anyone uses one.
import { rm } from 'node:fs/promises';
import { StoreError, StoreErrorCode, resolveInDataDir, type ReplayEntry, type Store } from '../store/index.ts';
import { notFound } from '../store/errors.ts';
import { matchesStored } from '../store/files.ts';
import { fetchReplayNow } from '../sync/engine.ts';
import type { ClientLifecycle } from './clients.ts';

/**
 * Downloads one record's replay now (on demand: a list whose replay policy is 'none'). `map` is a map ID or UID; a
 * record ID, when given, must be the player's current record there.
 */
export async function fetchReplay(
  deps: { store: Store; dataDir: string; clients: ClientLifecycle },
  map: string,
  accountId: string,
  o: { mapRecordId?: string | undefined; signal?: AbortSignal },
): Promise<{ entry: ReplayEntry; alreadyStored: boolean }> {
  const stored = deps.store.maps.get(map);
  if (!stored) throw notFound(`no stored map ${JSON.stringify(map.slice(0, 80))}; add it to a list and sync first`);
  return deps.clients.use((take) =>
    fetchReplayNow(
      { store: deps.store, client: take().core, dataDir: deps.dataDir, apiHost: deps.clients.hosts.api },
      { mapId: stored.mapId, accountId: accountId.trim().toLowerCase(), mapRecordId: o.mapRecordId },
      o.signal,
    ),
  );
}

/**
 * A downloaded replay's file, checked against its size and SHA-256 before anyone copies or shows it. A file that
 * no longer matches is removed and forgotten (the next sync that wants it downloads it again), and refused.
 */
export async function verifiedReplay(store: Store, dataDir: string, mapRecordId: string): Promise<{ file: string; entry: ReplayEntry }> {
  const entry = store.replays.get(mapRecordId);
  if (!entry || entry.state !== 'downloaded' || !entry.path) {
    throw notFound('this replay is not downloaded; a sync of its list (or "fetch replay") brings it');
  }
  const file = resolveInDataDir(dataDir, entry.path);
  if (!(await matchesStored(dataDir, entry.path, entry))) {
    await rm(file, { force: true });
    store.replays.markCorrupt(entry.mapRecordId, 'the file on disk no longer matched its checksum; it was removed');
    throw new StoreError(
      StoreErrorCode.CONFLICT,
      'this replay file was changed or damaged on disk (its checksum no longer matches); it was removed, and the next sync (or "fetch replay") downloads it again',
    );
  }
  return { file, entry };
}
