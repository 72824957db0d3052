// A Trackwatch on a temp data folder against an emulator, with the Live and Exchange clients beside it and the
// source and position repositories at hand, for the tests of lists from a source, links and positions.
import { createExchangeClient, createLiveClient, type ExchangeClient, type LiveClient } from '../../../src-main/core/nadeo/index.ts';
import type { PositionsRepo, SourcesRepo } from '../../../src-main/core/store/index.ts';
import type { SourceDeps } from '../../../src-main/core/sources.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import type { RunningEmulator } from '../../../src-main/emulator/index.ts';
import { tempDataDir } from '../../helpers/sync.ts';

const FAST = { appVersion: '0.1.0', maxRps: 2000, burst: 50, concurrency: 6, retry: { maxAttempts: 8, baseDelayMs: 1, maxDelayMs: 10 } };

export interface Product {
  tw: Trackwatch;
  live: LiveClient;
  exchange: ExchangeClient;
  sources: SourcesRepo;
  positions: PositionsRepo;
  deps: SourceDeps;
  close(): Promise<void>;
}

export async function openProduct(emu: RunningEmulator, o: { credentials?: { login: string; password: string } } = {}): Promise<Product> {
  const dir = await tempDataDir('trackwatch-sources-');
  const tw = await openTrackwatch({ dataDir: dir.dir, apiUrl: emu.url, maxRps: 2000, credentials: o.credentials, tuning: { burst: 50, concurrency: 6 } });
  const { sources, positions } = tw.store;
  const live = createLiveClient({ ...FAST, coreBaseUrl: emu.url, liveBaseUrl: emu.liveUrl, credentials: o.credentials });
  const exchange = createExchangeClient({ ...FAST, baseUrl: emu.exchangeUrl });
  const deps: SourceDeps = {
    store: { watchlists: tw.store.watchlists, maps: tw.store.maps, sources },
    clients: { live, exchange },
    addMaps: (list, uids, opts) => tw.addMaps(list, uids, opts.signal ? { signal: opts.signal } : {}),
  };
  return {
    tw,
    live,
    exchange,
    sources,
    positions,
    deps,
    async close() {
      await Promise.all([tw.close(), live.close(), exchange.close()]);
      await dir.remove();
    },
  };
}

export const FAST_CLIENT = FAST;
