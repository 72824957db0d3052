// Downloading a replay into the store's path for it: by the sync's replays phase, and on demand (fetchReplayNow).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { NadeoClient } from '../nadeo/index.ts';
import { replayPath, type Store } from '../store/index.ts';
import { StoreError, StoreErrorCode, localFault, notFound } from '../store/errors.ts';
import { matchesStored, resolveInDataDir } from '../store/files.ts';
import type { PendingReplay, ReplayEntry } from '../store/types.ts';
import { storeSplitsOf } from '../splits/backfill.ts';
import { messageOf } from './failures.ts';
import { acquireSyncLock } from './lock.ts';
import type { SyncDeps } from './types.ts';

/**
 * Downloads one replay into the store's path for it. A file already at that path is complete (files are only ever
 * renamed into place), so a sync killed between the rename and the database write keeps it instead of fetching again.
 */
export async function fetchReplay(
  deps: { store: Store; client: NadeoClient; dataDir: string },
  replay: PendingReplay,
  signal?: AbortSignal,
): Promise<'downloaded' | 'hidden'> {
  const { store, client, dataDir } = deps;
  const file = resolveInDataDir(dataDir, replay.path);
  const existing = await readFile(file).catch(() => null);
  if (existing) {
    const sha256 = createHash('sha256').update(existing).digest('hex');
    store.replays.markDownloaded(replay, replay.path, existing.length, sha256);
    await readSplitsOf(store, replay, sha256, existing);
    return 'downloaded';
  }
  await mkdir(dirname(file), { recursive: true });
  const result = await client.download(replay.url, file, { signal, dataDir });
  if (result.state === 'hidden') {
    // Refused although its record is visible: tried again at later syncs, a bounded number of times.
    store.replays.markForbidden(replay, 'the service refused this replay (403); a later sync asks again');
    return 'hidden';
  }
  store.replays.markDownloaded(replay, replay.path, result.bytes, result.sha256);
  await readSplitsOf(store, replay, result.sha256, await readFile(file).catch(() => null));
  return 'downloaded';
}

/**
 * Reads a replay just stored (its checksum verified) once, and stores its splits or why they could not be read. A
 * failure here never fails the download: the backfill reads what was left unread.
 */
async function readSplitsOf(store: Store, replay: PendingReplay, sha256: string, bytes: Uint8Array | null): Promise<void> {
  if (bytes === null) return;
  try {
    const record = store.records.get(replay.mapId, replay.accountId);
    const ofRecord = record?.mapRecordId === replay.mapRecordId.toLowerCase() ? record : undefined;
    await storeSplitsOf(store, {
      recordId: replay.mapRecordId, sha256, accountId: replay.accountId,
      time: ofRecord?.time ?? null, score: ofRecord?.score ?? null,
    }, bytes);
  } catch {
    // The splits stay unread (the store said no): the next start's backfill reads them.
  }
}

/**
 * Downloads one record's replay now, on demand (a list whose policy is 'none', the map view's "fetch replay"), under
 * the data folder's sync lock like any download. Returns the replay's entry: downloaded, or hidden when the service
 * refused it. A record we do not have, or one hidden behind a secret threshold, is refused with what to do.
 */
export async function fetchReplayNow(
  deps: SyncDeps,
  ref: { mapId: string; accountId: string; mapRecordId?: string | undefined },
  signal?: AbortSignal,
): Promise<{ entry: ReplayEntry; alreadyStored: boolean }> {
  const { store } = deps;
  const record = store.records.get(ref.mapId, ref.accountId);
  if (!record || (ref.mapRecordId !== undefined && record.mapRecordId !== ref.mapRecordId.toLowerCase())) {
    throw notFound('no stored record of this player on this map to fetch a replay for; a sync of its list brings it');
  }
  if (record.hidden) {
    throw new StoreError(StoreErrorCode.CONFLICT, "this record is behind the map's secret threshold: its replay cannot be had until the author lifts it");
  }
  const existing = store.replays.get(record.mapRecordId);
  if (existing?.state === 'downloaded' && existing.path) {
    // Stored and still matching its checksum: nothing to ask. A damaged file is removed and downloaded again.
    if (await matchesStored(deps.dataDir, existing.path, existing)) return { entry: existing, alreadyStored: true };
    await rm(resolveInDataDir(deps.dataDir, existing.path), { force: true });
    store.replays.markCorrupt(record, 'the file on disk no longer matched its checksum; it was removed');
  }
  const lock = await acquireSyncLock(deps.dataDir);
  try {
    const replay: PendingReplay = {
      mapId: record.mapId, accountId: record.accountId, mapRecordId: record.mapRecordId, url: record.url,
      path: replayPath(record.mapId, record.accountId, record.mapRecordId), attempts: existing?.attempts ?? 0,
    };
    try {
      await fetchReplay(deps, replay, signal);
    } catch (error) {
      if (!signal?.aborted && localFault(error) === undefined) store.replays.markFailed(replay, messageOf(error));
      throw error;
    }
    return { entry: store.replays.get(record.mapRecordId)!, alreadyStored: false };
  } finally {
    await lock.release();
  }
}
