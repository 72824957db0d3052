// What a Trackwatch is opened with: the data folder, and the services it talks to and how.
import packageJson from '../../../package.json' with { type: 'json' };
import type { NadeoClientOptions } from '../nadeo/index.ts';

export const APP_VERSION: string = packageJson.version;

export interface TrackwatchOptions {
  dataDir: string;
  apiUrl: string;
  appVersion?: string;
  /** Who runs this copy, for the User-Agent; required by the real service. */
  contact?: string | undefined;
  /** Requests per second to each service (default 1; the range is shared/rate-policy.ts's, checked by the clients). */
  maxRps?: number | undefined;
  credentials?: { login: string; password: string } | undefined;
  oauth?: { clientId: string; clientSecret: string; baseUrl?: string | undefined } | undefined;
  /**
   * The Live services (campaigns, Tracks of the Day, positions) and Trackmania Exchange; by default the real ones
   * beside the real Core service, else the emulator's (the Core URL, and the Core URL + '/tmx').
   */
  liveUrl?: string | undefined;
  exchangeUrl?: string | undefined;
  /** Finer client settings, for tests and benchmarks. */
  tuning?: Pick<NadeoClientOptions, 'retry' | 'burst' | 'concurrency' | 'timeoutMs' | 'deadlineMs' | 'maxUriLength' | 'onRequest'> | undefined;
}
