// The clients of one configuration, built together: Core, Live, Trackmania Exchange and (with an OAuth app) names,
// with the same account and contact, over one undici Agent and one budget per service (ServiceLimiters); closed
// together.
import { Agent } from 'undici';
import { createExchangeClient, isRealExchangeHost, REAL_EXCHANGE_BASE_URL, type ExchangeClient } from '../exchange/client.ts';
import type { Credentials } from './core/auth.ts';
import { createNadeoClient, type NadeoClient, type NadeoClientOptions } from './core/client.ts';
import { isRealServiceHost, REAL_LIVE_BASE_URL, REAL_OAUTH_BASE_URL } from './hosts.ts';
import { ConfigError } from './http/errors.ts';
import { DEFAULT_SERVICE_BUDGETS, ServiceLimiters, type ConnectionOptions } from './http/connection.ts';
import { createLiveClient, type LiveClient } from './live/client.ts';
import { createNamesClient, type NamesClient } from './oauth/client.ts';

export interface ClientsOptions extends Pick<ConnectionOptions, 'appVersion' | 'contact' | 'maxRps' | 'burst' | 'concurrency' | 'retry' | 'timeoutMs' | 'deadlineMs' | 'onRequest'> {
  /** The Core service: REAL_BASE_URL, or an emulator's URL. */
  apiUrl: string;
  /** The Live services; by default the real ones beside the real Core service, else the Core URL (an emulator's). */
  liveUrl?: string | undefined;
  /** Trackmania Exchange; by default the real one beside the real Core service, else the Core URL + '/tmx'. */
  exchangeUrl?: string | undefined;
  credentials?: Credentials | undefined;
  /** The OAuth app for names, and where its API is: by default the real one beside the real Core service, else the Core URL. */
  oauth?: { clientId: string; clientSecret: string; baseUrl?: string | undefined } | undefined;
  /** The Core client's URI limit (default 8219). */
  maxUriLength?: number | undefined;
  routeChoice?: NadeoClientOptions['routeChoice'];
}

/** Where each service is reached. */
export interface ServiceUrls {
  live: string;
  oauth: string;
  exchange: string;
}

function hostOf(url: string, what: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    throw new ConfigError(`${what} "${url}" is not a valid URL.`);
  }
}

/**
 * The Live, OAuth and Exchange URLs beside a Core URL. Beside Nadeo's real Core service they default to the real
 * ones; beside anything else (an emulator) to the Core URL's own origin, and a real Nadeo, Ubisoft or Exchange host
 * is refused whatever the settings or the environment say: a test setup never talks to, or sends its OAuth app's
 * secret to, the real services.
 */
export function serviceUrls(apiUrl: string, given: { liveUrl?: string | undefined; oauthUrl?: string | undefined; exchangeUrl?: string | undefined } = {}): ServiceUrls {
  const real = isRealServiceHost(hostOf(apiUrl, 'The Core URL'));
  const core = apiUrl.replace(/\/+$/, '');
  const urls = {
    live: given.liveUrl ?? (real ? REAL_LIVE_BASE_URL : core),
    oauth: given.oauthUrl ?? (real ? REAL_OAUTH_BASE_URL : core),
    exchange: given.exchangeUrl ?? (real ? REAL_EXCHANGE_BASE_URL : `${core}/tmx`),
  };
  if (!real) {
    const words = { live: 'The Live services URL (--live-url)', oauth: 'The OAuth URL (--oauth-url, TRACKWATCH_OAUTH_URL)', exchange: 'The Trackmania Exchange URL (--exchange-url)' };
    for (const key of ['live', 'oauth', 'exchange'] as const) {
      const host = hostOf(urls[key], words[key]);
      if (isRealServiceHost(host) || isRealExchangeHost(host) || isUbisoftHost(host)) {
        throw new ConfigError(`${words[key]} points at the real ${host} while the Core URL is not Nadeo's: against an emulator every service must be the emulator's. Leave it out (it then follows the Core URL) or give the emulator's.`);
      }
    }
  }
  return urls;
}

/** Ubisoft's hosts (the account services behind Nadeo's logins). */
function isUbisoftHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'ubi.com' || h.endsWith('.ubi.com') || h.endsWith('.ubisoft.com') || h === 'ubisoft.com' || h.endsWith('.ubisoftconnect.com');
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
  const urls = serviceUrls(o.apiUrl, { liveUrl: o.liveUrl, oauthUrl: o.oauth?.baseUrl, exchangeUrl: o.exchangeUrl });
  const oauth = o.oauth ? { ...o.oauth, baseUrl: urls.oauth } : undefined;
  const concurrency = o.concurrency ?? DEFAULT_SERVICE_BUDGETS.core.concurrency;
  const budget = { ...(o.maxRps !== undefined ? { maxRps: o.maxRps } : {}), ...(o.burst !== undefined ? { burst: o.burst } : {}), ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) };
  const limiters = new ServiceLimiters({ core: budget, live: budget, oauth: budget, exchange: budget });
  // One Agent: its pools are per origin, so every service keeps its own connections on it.
  const dispatcher = new Agent({ connections: concurrency + 2, keepAliveTimeout: 10_000 });
  // The pacing goes to every client too, though the shared limiters pace them: each checks it against its own host.
  const shared = { appVersion: o.appVersion, contact: o.contact, ...budget, retry: o.retry, timeoutMs: o.timeoutMs, deadlineMs: o.deadlineMs, onRequest: o.onRequest, dispatcher };
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
      oauth,
      maxUriLength: o.maxUriLength,
      limiters: limiters.for('core'),
    });
    made.live = createLiveClient({ ...shared, coreBaseUrl: o.apiUrl, liveBaseUrl: urls.live, credentials: o.credentials, limiters: limiters.for('live') });
    made.exchange = createExchangeClient({ ...shared, baseUrl: urls.exchange, limiters: limiters.for('exchange') });
    made.names = oauth ? createNamesClient({ ...shared, baseUrl: oauth.baseUrl, clientId: oauth.clientId, clientSecret: oauth.clientSecret, limiters: limiters.for('oauth') }) : undefined;
  } catch (error) {
    void closeAll();
    throw error;
  }
  const { core, live, exchange, names } = made as Clients;
  return { core, live, exchange, names, close: closeAll };
}
