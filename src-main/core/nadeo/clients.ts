// The clients of one configuration, built together: Core, Live, Trackmania Exchange and (with an OAuth app) names,
// with the same account and contact, over one undici Agent and one budget per service (ServiceLimiters); closed
// together.
import { Agent } from 'undici';
import { createExchangeClient, REAL_EXCHANGE_BASE_URL, type ExchangeClient } from '../exchange/client.ts';
import type { Credentials } from './core/auth.ts';
import { createNadeoClient, type NadeoClient, type NadeoClientOptions } from './core/client.ts';
import { isRealServiceHost } from './hosts.ts';
import { DEFAULT_SERVICE_BUDGETS, ServiceLimiters, type ConnectionOptions } from './http/connection.ts';
import { createLiveClient, type LiveClient } from './live/client.ts';
import { createNamesClient, type NamesClient } from './oauth/client.ts';

export interface ClientsOptions extends Pick<ConnectionOptions, 'appVersion' | 'contact' | 'maxRps' | 'burst' | 'concurrency' | 'retry' | 'timeoutMs' | 'onRequest'> {
  /** The Core service: REAL_BASE_URL, or an emulator's URL. */
  apiUrl: string;
  /** The Live services; by default the real ones beside the real Core service, else the Core URL (an emulator's). */
  liveUrl?: string | undefined;
  /** Trackmania Exchange; by default the real one beside the real Core service, else the Core URL + '/tmx'. */
  exchangeUrl?: string | undefined;
  credentials?: Credentials | undefined;
  oauth?: { clientId: string; clientSecret: string; baseUrl?: string | undefined } | undefined;
  /** The Core client's URI limit (default 8219). */
  maxUriLength?: number | undefined;
  routeChoice?: NadeoClientOptions['routeChoice'];
}

export interface Clients {
  core: NadeoClient;
  live: LiveClient;
  exchange: ExchangeClient;
  /** Players by display name: only with an OAuth app. */
  names: NamesClient | undefined;
  close(): Promise<void>;
}

export function openClients(o: ClientsOptions): Clients {
  const concurrency = o.concurrency ?? DEFAULT_SERVICE_BUDGETS.core.concurrency;
  const budget = { ...(o.maxRps !== undefined ? { maxRps: o.maxRps } : {}), ...(o.burst !== undefined ? { burst: o.burst } : {}), ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) };
  const limiters = new ServiceLimiters({ core: budget, live: budget, oauth: budget, exchange: budget });
  // One Agent: its pools are per origin, so every service keeps its own connections on it.
  const dispatcher = new Agent({ connections: concurrency + 2, keepAliveTimeout: 10_000 });
  // The pacing goes to every client too, though the shared limiters pace them: each checks it against its own host.
  const shared = { appVersion: o.appVersion, contact: o.contact, ...budget, retry: o.retry, timeoutMs: o.timeoutMs, onRequest: o.onRequest, dispatcher };
  const made: Partial<Clients> = {};
  const closeAll = async (): Promise<void> => {
    await Promise.all([made.core?.close(), made.live?.close(), made.exchange?.close(), made.names?.close()]);
    limiters.dispose();
    await dispatcher.destroy();
  };
  try {
    made.core = createNadeoClient({
      ...shared,
      baseUrl: o.apiUrl,
      routeChoice: o.routeChoice,
      credentials: o.credentials,
      oauth: o.oauth,
      maxUriLength: o.maxUriLength,
      limiters: limiters.for('core'),
    });
    made.live = createLiveClient({ ...shared, coreBaseUrl: o.apiUrl, liveBaseUrl: o.liveUrl, credentials: o.credentials, limiters: limiters.for('live') });
    const real = isRealServiceHost(new URL(o.apiUrl).hostname);
    const exchangeUrl = o.exchangeUrl ?? (real ? REAL_EXCHANGE_BASE_URL : `${o.apiUrl.replace(/\/+$/, '')}/tmx`);
    made.exchange = createExchangeClient({ ...shared, baseUrl: exchangeUrl, limiters: limiters.for('exchange') });
    made.names = o.oauth ? createNamesClient({ ...shared, baseUrl: o.oauth.baseUrl, clientId: o.oauth.clientId, clientSecret: o.oauth.clientSecret, limiters: limiters.for('oauth') }) : undefined;
  } catch (error) {
    void closeAll();
    throw error;
  }
  const { core, live, exchange, names } = made as Clients;
  return { core, live, exchange, names, close: closeAll };
}
