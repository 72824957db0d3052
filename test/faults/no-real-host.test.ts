// Issue 17 "Done when": when the Core URL is not Nadeo's, no request goes to a real Nadeo, Ubisoft or Exchange host,
// with any environment. Every environment variable a player could set is tried, alone and together: either the
// command refuses the setting in one line naming it, or every request of every client (Core, Live, names, Exchange)
// goes to the emulator's origin.
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src-main/cli/context.ts';
import { UserError } from '../../src-main/cli/errors.ts';
import { createNadeoClient, openClients, serviceUrls, type RequestEvent } from '../../src-main/core/nadeo/index.ts';
import { generateDataset } from '../../src-main/emulator/index.ts';
import { useEmulator } from '../helpers/emulator.ts';

const LOGIN = { login: 'svc', password: 'pw' };
const OAUTH = { clientId: 'app', clientSecret: 'app-secret' };
const dataset = generateDataset({ seed: 17, maps: 4, players: 3, now: Date.parse('2026-05-12T20:00:00Z') });
const emulator = useEmulator({ dataset, auth: { ...LOGIN }, oauth: { ...OAUTH } });

const REAL_HOSTS = [
  'https://prod.trackmania.core.nadeo.online',
  'https://live-services.trackmania.nadeo.live',
  'https://meet.trackmania.nadeo.club.nadeo.live',
  'https://api.trackmania.com',
  'https://public-ubiservices.ubi.com',
  'https://trackmania.exchange',
  'https://tm.mania.exchange',
];
const URL_VARIABLES = ['TRACKWATCH_LIVE_URL', 'TRACKWATCH_OAUTH_URL', 'TRACKWATCH_EXCHANGE_URL'] as const;

/** Each URL variable alone on each real host, and all of them at once. */
function environments(): Record<string, string>[] {
  const out: Record<string, string>[] = [{}];
  for (const name of URL_VARIABLES) for (const host of REAL_HOSTS) out.push({ [name]: host });
  for (const host of REAL_HOSTS) out.push(Object.fromEntries(URL_VARIABLES.map((n) => [n, host])));
  return out;
}

describe('no real host beside an emulator', () => {
  it('refuses a real host in any URL variable, naming it, and sends everything else to the emulator', async () => {
    const emu = emulator();
    let refused = 0;
    let used = 0;
    for (const extra of environments()) {
      const env = {
        TRACKWATCH_API_URL: emu.url,
        TRACKWATCH_LOGIN: LOGIN.login,
        TRACKWATCH_PASSWORD: LOGIN.password,
        TRACKWATCH_OAUTH_CLIENT_ID: OAUTH.clientId,
        TRACKWATCH_OAUTH_CLIENT_SECRET: OAUTH.clientSecret,
        TRACKWATCH_DATA_DIR: '/nonexistent/trackwatch-test',
        ...extra,
      };
      let options;
      try {
        options = resolveOptions({}, env);
      } catch (error) {
        expect(error, JSON.stringify(extra)).toBeInstanceOf(UserError);
        const message = (error as Error).message;
        expect(message).toMatch(/points at the real .* while the Core URL is not Nadeo's/);
        expect(message).not.toContain('\n');
        refused++;
        continue;
      }
      const origins = new Set<string>();
      const clients = openClients({
        apiUrl: options.apiUrl,
        liveUrl: options.liveUrl,
        exchangeUrl: options.exchangeUrl,
        credentials: options.credentials,
        oauth: options.oauth,
        appVersion: '0.1.0',
        maxRps: 10_000,
        burst: 64,
        onRequest: (e: RequestEvent) => origins.add(e.origin),
      });
      try {
        await clients.core.getMapsByUid([dataset.maps[0]!.mapUid]);
        await clients.live.getSeasonalCampaigns();
        await clients.names!.getAccountIds(['nobody-by-this-name']);
        await clients.core.getDisplayNames([dataset.records[0]!.accountId]);
        await clients.exchange.getMapPack(1);
      } finally {
        await clients.close();
      }
      expect([...origins], JSON.stringify(extra)).toEqual([new URL(emu.url).origin]);
      used++;
    }
    expect(refused).toBe(environments().length - 1);
    expect(used).toBe(1);
  });

  it('holds below the CLI too: the clients refuse a real host beside an emulator, and default to its origin', () => {
    const emu = 'http://127.0.0.1:9';
    expect(serviceUrls(emu)).toEqual({ live: emu, oauth: emu, exchange: `${emu}/tmx` });
    expect(() => openClients({ apiUrl: emu, appVersion: '0.1.0', oauth: { ...OAUTH, baseUrl: 'https://api.trackmania.com' } })).toThrow(/real api\.trackmania\.com/);
    expect(() => createNadeoClient({ baseUrl: emu, appVersion: '0.1.0', oauth: { ...OAUTH, baseUrl: 'https://api.trackmania.com' } })).toThrow(/must both be the real services or both an emulator/);
    // Beside the real Core service the real hosts are the defaults.
    expect(serviceUrls('https://prod.trackmania.core.nadeo.online')).toEqual({
      live: 'https://live-services.trackmania.nadeo.live',
      oauth: 'https://api.trackmania.com',
      exchange: 'https://trackmania.exchange',
    });
  });
});
