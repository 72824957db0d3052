// The window's backend (`serve`, the desktop app) takes the Live, OAuth and Exchange URLs as the command line does
// (issue 17 §2.4): each service goes where it is told, and beside an emulator's Core URL no request reaches a real
// Nadeo, Ubisoft or Exchange host; a real one given is refused when the service opens, naming it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEvent } from '../../../src-main/core/nadeo/index.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { DATA_NOW } from '../../helpers/clock.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tw-service-urls-'));
const LOGIN = { login: 'svc-login', password: 'svc-password' };
const OAUTH = { clientId: 'app', clientSecret: 'app-secret' };

describe('the service URLs of the window', () => {
  let emulator: RunningEmulator;
  let service: TrackwatchService;
  const { call } = serviceCaller(() => service);
  /** The same emulator under another origin (localhost, not 127.0.0.1): a request's origin says which URL it used. */
  let other: string;
  const origins = new Map<string, Set<string>>();

  beforeAll(async () => {
    const dataset = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 3, style: 'season' });
    emulator = await startEmulator({ dataset, auth: { ...LOGIN }, oauth: { ...OAUTH } });
    other = emulator.url.replace('127.0.0.1', 'localhost');
    const host = testHost();
    host.secrets.set('nadeo.password', LOGIN.password);
    host.secrets.set('oauth.clientSecret', OAUTH.clientSecret);
    service = await TrackwatchService.open({
      dataDir: path.join(root, 'data'),
      apiUrl: emulator.url,
      liveUrl: other,
      oauthUrl: other,
      exchangeUrl: `${other}/tmx`,
      host,
    });
    service.settings.set('login', LOGIN.login);
    service.settings.set('contact', 'me@example.com');
    service.settings.set('oauthClientId', OAUTH.clientId);
    await service.reconfigureMain();
    // Every request the folder's clients make, by the service it went to.
    await service.folder.main.reconfigure({
      tuning: {
        onRequest: (e: RequestEvent) => {
          const host = new URL(e.origin).hostname;
          origins.set(host, (origins.get(host) ?? new Set()).add(e.route));
        },
      },
    });
  });
  afterAll(async () => {
    await service.close();
    await emulator.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends Live, name and Exchange requests to the URLs given, and Core requests to the Core URL', async () => {
    const campaign = await call('watchlists.createFromSource', { source: 'campaign:current' });
    expect(campaign.added).toBeGreaterThan(0);
    const pack = await call('watchlists.createFromSource', { source: 'tmx-pack:5150' });
    expect(pack.added).toBeGreaterThan(0);
    const name = Object.values(emulator.dataset.displayNames!)[0]!;
    expect((await call('players.findByName', { names: [name] })).found).toHaveLength(1);
    expect([...origins.keys()].sort()).toEqual(['127.0.0.1', 'localhost']);
    const [toCore, toOther] = [[...origins.get('127.0.0.1')!], [...origins.get('localhost')!]];
    // Live (the campaign), the OAuth API (the name) and the Exchange (the pack) went to the URLs given...
    for (const route of [/campaign/, /display-names/, /mappacks/]) expect(toOther.some((r) => route.test(r)), `${route} in ${toOther.join(', ')}`).toBe(true);
    // ...and Core (map info) to the Core URL, which saw none of theirs.
    expect(toCore.some((r) => /maps/.test(r))).toBe(true);
    for (const route of [/campaign/, /display-names/, /mappacks/]) expect(toCore.some((r) => route.test(r)), `${route} in ${toCore.join(', ')}`).toBe(false);
  });

  it('refuses, when it opens, a real Nadeo, Ubisoft or Exchange host beside an emulator, naming the setting', async () => {
    for (const [option, url] of [
      ['liveUrl', 'https://live-services.trackmania.nadeo.live'],
      ['oauthUrl', 'https://api.trackmania.com'],
      ['exchangeUrl', 'https://trackmania.exchange'],
      ['liveUrl', 'https://public-ubiservices.ubi.com'],
    ] as const) {
      const opening = TrackwatchService.open({ dataDir: path.join(root, `refused-${option}`), apiUrl: emulator.url, [option]: url, host: testHost() });
      await expect(opening, option).rejects.toThrow(/points at the real .* while the Core URL is not Nadeo's/);
    }
  });
});
