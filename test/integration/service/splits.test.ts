// The service reads archived replays' splits in the background when it opens a folder, telling its progress as
// 'splits.backfill' events, and its splits.forMap then shows them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../../src-main/contract/names.ts';
import { openStore } from '../../../src-main/core/store/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { archiveReplay, ghostBytes } from '../../helpers/ghosts.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid } from '../../unit/store/fixtures.ts';

const PLAYERS = 30;
let dataDir: string;
let service: TrackwatchService;
const { call } = serviceCaller(() => service);

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tw-service-splits-'));
  const store = openStore({ file: join(dataDir, 'trackwatch.sqlite') });
  store.maps.upsert([makeMap(1)]);
  const run = store.syncRuns.start();
  const records = Array.from({ length: PLAYERS }, (_, i) => makeRecord(1, i + 1));
  store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run, records });
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(1) }]);
  store.players.add('L', records.map((r) => ({ accountId: r.accountId })));
  for (const record of records) {
    const bytes = ghostBytes(record.accountId, [10000, 20000, record.time!]);
    archiveReplay(store, dataDir, record, bytes);
  }
  store.close();
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the splits backfill in the service', () => {
  it('reads the archived replays after opening, tells its progress, and the view shows them', async () => {
    service = await TrackwatchService.open({ dataDir, host: testHost(), apiUrl: 'http://127.0.0.1:9' });
    const seen: unknown[] = [];
    service.events.subscribe((name: EventName, payload) => {
      if (name === 'splits.backfill') seen.push(payload);
    });
    await service.splitsBackfill.idle();
    expect(seen.at(-1)).toEqual({ done: PLAYERS, total: PLAYERS, read: PLAYERS, unreadable: 0, finished: true });
    const view = await call('splits.forMap', { map: mapUid(1), list: 'L' });
    expect(view.players).toHaveLength(PLAYERS);
    expect(view.players[0]!.checkpoints).toEqual([10000, 20000, 30001]);
    expect(view.missing).toEqual([]);
    expect(accountId(1)).toBe(view.players[0]!.accountId);
  });
});
