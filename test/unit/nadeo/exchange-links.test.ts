import { describe, expect, it } from 'vitest';
import { parseSourceLink } from '../../../src-main/core/nadeo/sources/links.ts';

const ACCOUNT = '5b4d42f4-c2de-407d-b367-cbff3fe817bc';

describe('parseSourceLink: Trackmania Exchange', () => {
  it.each([
    ['https://trackmania.exchange/mapshow/123456', 123456],
    ['https://trackmania.exchange/maps/98765/summer-2024-01', 98765],
    ['https://trackmania.exchange/maps/98765', 98765],
    ['https://trackmania.exchange/s/tr/4567', 4567],
    ['http://www.trackmania.exchange/mapshow/77?tab=records', 77],
    ['trackmania.exchange/mapshow/12', 12],
    ['  https://TRACKMANIA.exchange/MapShow/31  ', 31],
    ['https://trackmania.exchange/maps/55/%E2%98%85-star', 55],
  ])('a map link %s gives its Exchange number', (link, id) => {
    expect(parseSourceLink(link)).toEqual({ kind: 'tmx-map', exchangeId: id, input: link.trim() });
  });

  it('a map pack link gives the pack number', () => {
    expect(parseSourceLink('https://trackmania.exchange/mappack/view/4242')).toEqual({ kind: 'tmx-pack', packId: 4242, input: 'https://trackmania.exchange/mappack/view/4242' });
    expect(parseSourceLink('trackmania.exchange/mappack/view/7/some-name')).toMatchObject({ kind: 'tmx-pack', packId: 7 });
  });

  it.each([
    ['https://trackmania.exchange/mapshow/abc', '"abc" is not a Trackmania Exchange map number'],
    ['https://trackmania.exchange/mapshow/', 'the Trackmania Exchange map number is missing'],
    ['https://trackmania.exchange/mapshow/0', '"0" is not a Trackmania Exchange map number'],
    ['https://trackmania.exchange/mapshow/-5', '"-5" is not'],
    ['https://trackmania.exchange/mapshow/99999999999', 'is not a Trackmania Exchange map number'],
    ['https://trackmania.exchange/mappack/view/x1', '"x1" is not a Trackmania Exchange map pack number'],
    ['https://trackmania.exchange/usershow/12', 'not a Trackmania Exchange map or map pack link'],
    ['https://trackmania.exchange/', 'not a Trackmania Exchange map or map pack link'],
  ])('refuses %s, saying why', (link, reason) => {
    const parsed = parseSourceLink(link);
    expect(parsed?.kind).toBe('invalid');
    expect(parsed && 'reason' in parsed ? parsed.reason : '').toContain(reason);
  });

  it('a malformed %-escape is refused for that link alone, naming the bad escape', () => {
    const bad = parseSourceLink('https://trackmania.exchange/maps/55/bad%zzname');
    expect(bad).toMatchObject({ kind: 'invalid', input: 'https://trackmania.exchange/maps/55/bad%zzname' });
    expect(bad && 'reason' in bad ? bad.reason : '').toContain('malformed %-escape ("%zz")');
    const notUtf8 = parseSourceLink('https://trackmania.exchange/maps/55/%E0%A4');
    expect(notUtf8 && 'reason' in notUtf8 ? notUtf8.reason : '').toContain('do not decode to text');
    // The next link is read normally.
    expect(parseSourceLink('https://trackmania.exchange/maps/56/ok')).toMatchObject({ kind: 'tmx-map', exchangeId: 56 });
  });
});

describe('parseSourceLink: trackmania.io', () => {
  it('a club campaign link gives both numbers', () => {
    expect(parseSourceLink('https://trackmania.io/#/campaigns/19489/28446')).toEqual({
      kind: 'club-campaign',
      clubId: 19489,
      campaignId: 28446,
      input: 'https://trackmania.io/#/campaigns/19489/28446',
    });
    expect(parseSourceLink('trackmania.io/#/campaigns/1/2/')).toMatchObject({ kind: 'club-campaign', clubId: 1, campaignId: 2 });
  });

  it('a player link gives the account ID, in lower case', () => {
    expect(parseSourceLink(`https://trackmania.io/#/player/${ACCOUNT.toUpperCase()}`)).toEqual({
      kind: 'player',
      accountId: ACCOUNT,
      input: `https://trackmania.io/#/player/${ACCOUNT.toUpperCase()}`,
    });
    expect(parseSourceLink(`https://www.trackmania.io/#/player/${ACCOUNT}/clubs`)).toMatchObject({ kind: 'player', accountId: ACCOUNT });
  });

  it.each([
    ['https://trackmania.io/#/player/not-an-id', '"not-an-id" is not an account ID'],
    ['https://trackmania.io/#/player', 'is not an account ID'],
    ['https://trackmania.io/#/campaigns/19489', 'not a club campaign link'],
    ['https://trackmania.io/#/campaigns/abc/12', 'not a club campaign link'],
    ['https://trackmania.io/#/player/%E2%9', 'malformed %-escape'],
  ])('refuses %s, saying why', (link, reason) => {
    const parsed = parseSourceLink(link);
    expect(parsed?.kind).toBe('invalid');
    expect(parsed && 'reason' in parsed ? parsed.reason : '').toContain(reason);
  });

  it('leaves map links, UIDs, IDs and other sites to the map reference reader', () => {
    for (const text of [
      'https://trackmania.io/#/leaderboard/ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i',
      'ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i',
      ACCOUNT,
      'https://example.com/mapshow/12',
      '',
      'campaign:current',
    ]) {
      expect(parseSourceLink(text)).toBeNull();
    }
  });
});
