// A Trackwatch on a temp data folder against an emulator, with its Live and Exchange clients and the source and
// position repositories at hand, for the tests of lists from a source, links and positions.
import type { ExchangeClient, LiveClient } from '../../../src-main/core/nadeo/index.ts';
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

export async function openProduct(
  emu: RunningEmulator,
  o: { credentials?: { login: string; password: string }; oauth?: { clientId: string; clientSecret: string } } = {},
): Promise<Product> {
  const dir = await tempDataDir('trackwatch-sources-');
  const tw = await openTrackwatch({
    dataDir: dir.dir,
    apiUrl: emu.url,
    maxRps: 2000,
    credentials: o.credentials,
    oauth: o.oauth ? { ...o.oauth, baseUrl: emu.oauthUrl } : undefined,
    tuning: { burst: 50, concurrency: 6, retry: FAST.retry },
  });
  const { sources, positions } = tw.store;
  // The product's own clients: Live and Exchange made beside the Core client, each with its own budget.
  const { live, exchange } = tw;
  const deps: SourceDeps = {
    store: { watchlists: tw.store.watchlists, maps: tw.store.maps, sources },
    clients: { live, exchange },
    addMaps: (list, uids, opts) => tw.addMaps(list, uids, opts),
  };
  return {
    tw,
    live,
    exchange,
    sources,
    positions,
    deps,
    async close() {
      await tw.close();
      await dir.remove();
    },
  };
}

export const FAST_CLIENT = FAST;
