// The emulator's Trackmania Exchange stub (under {emulator}/tmx) and the OAuth API's name-to-ID route and JWTs.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { call, get } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 31, maps: 12, players: 10 });
const OAUTH = { clientId: 'app-1', clientSecret: 'secret-1' };
const emulator = useEmulator({ dataset, oauth: OAUTH });

interface Page {
  More: boolean;
  Results: { MapId: number; MapUid: string; Name: string }[];
}

describe('Exchange stub', () => {
  it('exchange: map numbers resolve to the dataset UIDs; unknown numbers are left out', async () => {
    expect(emulator().exchangeUrl).toBe(`${emulator().url}/tmx`);
    const [a, b] = dataset.maps;
    const reply = await get(`${emulator().exchangeUrl}/api/maps?fields=MapId,MapUid,Name&id=${b!.exchangeId},999999999,${a!.exchangeId}`);
    expect(reply.status).toBe(200);
    expect(reply.json<Page>()).toEqual({
      More: false,
      Results: [
        { MapId: a!.exchangeId, MapUid: a!.mapUid, Name: a!.name },
        { MapId: b!.exchangeId, MapUid: b!.mapUid, Name: b!.name },
      ],
    });
    expect((await get(`${emulator().exchangeUrl}/api/maps?fields=MapId,MapUid,Name&id=1`)).json()).toEqual({ More: false, Results: [] });
  });

  it('exchange: a pack lists its maps in order, page by page with count and after; an unknown pack has no results', async () => {
    const pack = dataset.exchangePacks!.find((p) => p.packId === 5150)!;
    const seen: number[] = [];
    let after: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = (await get(`${emulator().exchangeUrl}/api/maps?fields=MapId,MapUid&mappackid=${pack.packId}&count=4${after ? `&after=${after}` : ''}`)).json<Page>();
      expect(page.Results.length).toBeLessThanOrEqual(4);
      seen.push(...page.Results.map((r) => r.MapId));
      if (!page.More) break;
      after = page.Results.at(-1)!.MapId;
    }
    expect(seen).toEqual(pack.exchangeIds);
    expect((await get(`${emulator().exchangeUrl}/api/maps?fields=MapId&mappackid=424242`)).json()).toEqual({ More: false, Results: [] });
  });

  it('exchange: fields is required and an unknown field is refused, as problem+json', async () => {
    const missing = await get(`${emulator().exchangeUrl}/api/maps?id=1`);
    expect(missing.status).toBe(400);
    expect(String(missing.headers['content-type'])).toContain('application/problem+json');
    const unknown = await get(`${emulator().exchangeUrl}/api/maps?fields=MapId,Awards&id=1`);
    expect(unknown.status).toBe(400);
    expect(unknown.json<{ detail: string }>().detail).toBe("Specified field 'Awards' does not exist");
  });
});

describe('OAuth API', () => {
  async function bearer(): Promise<string> {
    const reply = await call(`${emulator().oauthUrl}/api/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret }).toString(),
    });
    return `Bearer ${reply.json<{ access_token: string }>().access_token}`;
  }

  it('oauth: the access token is a JWT whose claims say who it is for and when it expires', async () => {
    const token = (await bearer()).slice('Bearer '.length);
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ aud: OAUTH.clientId, sub: '', scopes: [] });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  it('oauth: names to account IDs; unknown names are left out; none known is []', async () => {
    const authorization = await bearer();
    const [idA, nameA] = Object.entries(dataset.displayNames!).find(([, n]) => n === 'Speedy')!;
    const [idB, nameB] = Object.entries(dataset.displayNames!).find(([, n]) => n.includes('<script>'))!;
    const url = `${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=${encodeURIComponent(nameA)}&displayName[]=${encodeURIComponent(nameB)}&displayName[]=Nobody`;
    const reply = await get(url, { authorization });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ [nameA]: idA, [nameB]: idB });
    expect((await get(`${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=SPEEDY`, { authorization })).json()).toEqual({ SPEEDY: idA });
    expect((await get(`${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=Nobody`, { authorization })).json()).toEqual([]);
  });

  it('oauth: more than 50 names or none is 400; without a token 401', async () => {
    const authorization = await bearer();
    const many = Array.from({ length: 51 }, (_, i) => `displayName[]=n${i}`).join('&');
    expect((await get(`${emulator().oauthUrl}/api/display-names/account-ids?${many}`, { authorization })).status).toBe(400);
    expect((await get(`${emulator().oauthUrl}/api/display-names/account-ids`, { authorization })).status).toBe(400);
    expect((await get(`${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=Speedy`)).status).toBe(401);
  });
});
