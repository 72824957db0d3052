// Ghost files for the splits tests, written by the emulator's writer (the product reads them with its own reader).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PlayerRecord } from '../../src-main/core/model.ts';
import { openStore, replayPath, type Store } from '../../src-main/core/store/index.ts';
import { loginOf, writeGhostFile, writeReplayFile, type GhostSpec } from '../../src-main/emulator/gbx/index.ts';
import { accountId, makeMap, makeRecord, mapId } from '../unit/store/fixtures.ts';

/** A ghost of `accountId`'s run with these cumulative checkpoint times (the last is the finish). */
export function ghostBytes(accountId: string, checkpoints: number[], overrides: Partial<GhostSpec> = {}): Uint8Array {
  return writeGhostFile(ghostSpec(accountId, checkpoints, overrides));
}

/** A replay of the same run, holding its map: a lap race of `laps` laps (1: not a lap race). */
export function replayBytes(accountId: string, checkpoints: number[], laps: number): Uint8Array {
  const ghost = ghostSpec(accountId, checkpoints);
  const map = { uid: ghost.mapUid, name: 'Lap map', author: accountId, mapType: 'TrackMania\\TM_Race', medals: [60_000, 50_000, 45_000, 40_000] as [number, number, number, number] };
  const layout = { hasClones: false, editorMode: 0, laps, checkpointsPerLap: Math.max(1, Math.floor(checkpoints.length / laps)) };
  return writeReplayFile({ map: { ...map, ...layout }, ghosts: [ghost], authorGhost: { ...ghost, nickname: 'Author' } });
}

function ghostSpec(accountId: string, checkpoints: number[], overrides: Partial<GhostSpec> = {}): GhostSpec {
  return {
    nickname: `player-${accountId.slice(-4)}`,
    login: loginOf(accountId),
    mapUid: 'Uid000001abcdefghijklmnopq',
    raceTime: checkpoints.at(-1) ?? -1,
    respawns: -1,
    stuntScore: 0,
    checkpoints: checkpoints.map((time) => ({ time, stuntScore: 0 })),
    samples: new Uint8Array(256).fill(7),
    ghostUid: 1,
    zone: 'World|Europe|France',
    trigram: 'PLA',
    ...overrides,
  };
}

/** A replay archived as a sync leaves it: the file at its place in the data folder, marked downloaded with its sha256. */
export function archiveReplay(store: Store, dataDir: string, record: PlayerRecord, bytes: Uint8Array): void {
  const path = replayPath(record.mapId, record.accountId, record.mapRecordId);
  mkdirSync(dirname(join(dataDir, path)), { recursive: true });
  writeFileSync(join(dataDir, path), bytes);
  store.replays.markDownloaded(record, path, bytes.length, createHash('sha256').update(bytes).digest('hex'));
}

/**
 * A data folder as a sync before splits leaves it: map 1 in list `list` with players 1..`players` (nickname P<n>,
 * player 1 is me), a personal best for each player of `runs` (its time the run's last checkpoint), and each one's
 * replay archived, its bytes from `bytesOf`.
 */
export function archivedRunsFolder(
  dataDir: string,
  list: string,
  runs: Record<number, number[]>,
  bytesOf: (record: PlayerRecord, player: number, checkpoints: number[]) => Uint8Array,
  players = Math.max(...Object.keys(runs).map(Number)),
): void {
  const store = openStore({ file: join(dataDir, 'trackwatch.sqlite') });
  try {
    store.maps.upsert([makeMap(1)]);
    const run = store.syncRuns.start();
    const records = Object.entries(runs).map(([p, cps]) => makeRecord(1, Number(p), { time: cps.at(-1)! }));
    store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run, records });
    store.watchlists.create(list);
    store.maps.addRefs(list, [{ mapId: mapId(1) }]);
    store.players.add(list, Array.from({ length: players }, (_, i) => ({ accountId: accountId(i + 1), nickname: `P${i + 1}` })));
    store.settings.setMe(accountId(1));
    for (const [i, record] of records.entries()) {
      const player = Number(Object.keys(runs)[i]);
      archiveReplay(store, dataDir, record, bytesOf(record, player, runs[player]!));
    }
  } finally {
    store.close();
  }
}
