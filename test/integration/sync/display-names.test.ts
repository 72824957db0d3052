// Display names during a sync (docs/nadeo-api.md "Player names"): cached 30 days, and a player the OAuth API has no
// name for waits out the same 30 days instead of being asked again on every sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { runSync } from '../../../src-main/core/sync/engine.ts';
import { RequestEventHub } from '../../../src-main/core/sync/run-requests.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { testClientOptions } from '../nadeo/helpers.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const OAUTH = { clientId: 'names-app', clientSecret: 'names-secret' };
const DAY_MS = 24 * 3600 * 1000;
const ROUTE = 'GET /api/display-names';

describe('display names across syncs', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 3, players: 4 });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))].sort();
  // A player the OAuth API has no name for (a deleted account, or one the API does not answer for).
  const nameless = accounts[0]!;
  delete dataset.displayNames![nameless];
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let tw: Trackwatch;
  let client: NadeoClient;
  const hub = new RequestEventHub();

  beforeAll(async () => {
    emulator = await startEmulator({ dataset, oauth: OAUTH });
    data = await tempDataDir();
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 2000 });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Watched', accounts.map((accountId) => ({ accountId })));
    client = createNadeoClient(testClientOptions(emulator.url, { oauth: { ...OAUTH, baseUrl: emulator.oauthUrl }, onRequest: hub.emit }));
  });
  afterAll(async () => {
    await client.close();
    await tw.close();
    await emulator.close();
    await data.remove();
  });

  const t0 = new Date('2026-11-01T12:00:00.000Z');
  /** One sync at `at`; how many display-names requests it made. */
  async function syncAt(at: Date): Promise<number> {
    const before = emulator.stats().byRoute[ROUTE] ?? 0;
    const summary = await runSync(
      { store: tw.store, client, requestEvents: hub, dataDir: data.dir, now: () => at },
      { replays: false, positions: false, displayNames: true },
    );
    expect(summary.errors).toEqual([]);
    return (emulator.stats().byRoute[ROUTE] ?? 0) - before;
  }

  it('asks once, stamps the nameless player as asked, and asks nobody again within 30 days', async () => {
    expect(await syncAt(t0)).toBeGreaterThan(0);
    const named = tw.store.players.get(accounts[1]!)!;
    expect(named.displayName).toBe(dataset.displayNames![accounts[1]!]);
    const stamped = tw.store.players.get(nameless)!;
    expect(stamped.displayName).toBeNull();
    expect(stamped.displayNameFetchedAt).toBe(t0.toISOString());

    // A day later: every name (and every missing one) is still fresh, so not one display-names request.
    expect(await syncAt(new Date(t0.getTime() + DAY_MS))).toBe(0);
    expect(tw.store.players.get(nameless)!.displayNameFetchedAt).toBe(t0.toISOString());
  });

  it('after the 30 days, the nameless player is asked again', async () => {
    const later = new Date(t0.getTime() + 31 * DAY_MS);
    expect(await syncAt(later)).toBeGreaterThan(0);
    const player = tw.store.players.get(nameless)!;
    expect(player.displayName).toBeNull();
    expect(player.displayNameFetchedAt).toBe(later.toISOString());
  });
});
