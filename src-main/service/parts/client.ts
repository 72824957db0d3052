// The client configuration of the real folder's Trackwatch, from what the player saved (settings and secrets), and
// of the demo's: every request either makes is reported to the connection status.
import type { RequestEvent } from '../../core/nadeo/index.ts';
import type { Trackwatch, TrackwatchOptions } from '../../core/trackwatch.ts';
import type { SecretStore } from '../secrets.ts';
import type { ServiceSettings } from './settings.ts';

export interface ClientConfigOptions {
  settings: ServiceSettings;
  secrets: SecretStore;
  /** Trackmania's OAuth API, Nadeo's Live services and Trackmania Exchange (defaults: core/nadeo/clients.ts serviceUrls). */
  oauthUrl?: string | undefined;
  liveUrl?: string | undefined;
  exchangeUrl?: string | undefined;
  onRequest: (event: RequestEvent) => void;
}

export class ClientConfig {
  readonly #o: ClientConfigOptions;

  constructor(options: ClientConfigOptions) {
    this.#o = options;
  }

  /** Whether a login and its password are saved. */
  get hasAccount(): boolean {
    return Boolean(this.#o.settings.login && this.#o.secrets.get('nadeo.password'));
  }

  /** The real folder's client settings, from what the player saved: contact, pace, password, OAuth app. */
  async configureMain(main: Trackwatch): Promise<void> {
    const { settings, secrets } = this.#o;
    const login = settings.login;
    const password = secrets.get('nadeo.password');
    const clientId = settings.oauthClientId;
    const clientSecret = secrets.get('oauth.clientSecret');
    const changes: Partial<Omit<TrackwatchOptions, 'dataDir'>> = {
      contact: settings.contact || undefined,
      maxRps: settings.maxRps,
      credentials: login && password ? { login, password } : undefined,
      oauth: clientId && clientSecret ? { clientId, clientSecret, baseUrl: this.#o.oauthUrl } : undefined,
      liveUrl: this.#o.liveUrl,
      exchangeUrl: this.#o.exchangeUrl,
      tuning: { onRequest: (e) => this.#o.onRequest(e) },
    };
    await main.reconfigure(changes);
  }

  /** The demo keeps its own account and pace (its emulator's); only its requests are watched. */
  async configureDemo(demo: Trackwatch): Promise<void> {
    await demo.reconfigure({ tuning: { onRequest: (e) => this.#o.onRequest(e) } });
  }
}
