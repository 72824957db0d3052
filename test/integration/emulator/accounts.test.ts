// Names as the services give them (issue 16): plain display names from the OAuth API, club tags with their formatting
// from Core's club-tags route (openplanet-nl/nadeoapi-docs docs/core/accounts/club-tags.md).
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { get, unknownUuid, type ApiErrorBody } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const season = generateDataset({ now: DATA_NOW, seed: 2026, maps: 6, players: 30, style: 'season' });
const emulator = useEmulator({ dataset: season });

interface ClubTag {
  accountId: string;
  clubTag: string;
  timestamp: string;
}

const tagsOf = (ids: string[]) => get(`${emulator().url}/accounts/clubTags/?accountIdList=${ids.join(',')}`);

describe('club tags (Core GET /accounts/clubTags/)', () => {
  const tagged = Object.keys(season.clubTags ?? {});
  const untagged = Object.keys(season.displayNames ?? {}).filter((id) => !tagged.includes(id));

  it('gives each asked account that has a tag: accountId, the tag with its codes, when it was set; the others are left out', async () => {
    expect(tagged.length).toBeGreaterThan(3);
    expect(untagged.length).toBeGreaterThan(3);
    const asked = [...tagged.slice(0, 4), ...untagged.slice(0, 3), unknownUuid(1)];
    const reply = await tagsOf(asked);
    expect(reply.status).toBe(200);
    const answer = reply.json<ClubTag[]>();
    expect(answer.map((t) => t.accountId).sort()).toEqual(tagged.slice(0, 4).sort());
    for (const t of answer) {
      expect(t.clubTag).toBe(season.clubTags![t.accountId]);
      expect(t.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    }
    // The same account asked twice, or in capitals, is answered once.
    const again = (await tagsOf([tagged[0]!, tagged[0]!.toUpperCase()])).json<ClubTag[]>();
    expect(again).toEqual([answer.find((t) => t.accountId === tagged[0])]);
  });

  it('an invalid account ID, or none, gives the validation error with an info object', async () => {
    for (const ids of [['not-an-id'], [tagged[0]!, 'x'], []]) {
      const reply = await tagsOf(ids);
      expect(reply.status).toBe(400);
      expect(reply.json<ApiErrorBody>()).toMatchObject({ code: 'C-AA-00-03', message: 'There was a validation error.', info: { accountIdList: 'Invalid account id.' } });
    }
  });

  it('display names are plain, and the name-to-ID route finds a player by the name alone (no tag), in any case', async () => {
    const id = tagged[0]!;
    const name = season.displayNames![id]!;
    expect(name).toMatch(/^\w+$/);
    const names = (await get(`${emulator().oauthUrl}/api/display-names?accountId[]=${id}`)).json<Record<string, string>>();
    expect(names).toEqual({ [id]: name });
    const found = (await get(`${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=${name.toUpperCase()}`)).json<Record<string, string>>();
    expect(found).toEqual({ [name.toUpperCase()]: id });
    const withTag = (await get(`${emulator().oauthUrl}/api/display-names/account-ids?displayName[]=${encodeURIComponent(`${season.clubTags![id]} ${name}`)}`)).json();
    expect(withTag).toEqual([]);
  });
});
