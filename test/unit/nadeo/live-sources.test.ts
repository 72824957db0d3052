import { describe, expect, it } from 'vitest';
import { formatListSource, parseListSource, type ListSource } from '../../../src-main/core/nadeo/sources/sources.ts';

describe('parseListSource', () => {
  it.each<[string, ListSource]>([
    ['campaign:current', { kind: 'campaign', which: 'current' }],
    ['Campaign:CURRENT', { kind: 'campaign', which: 'current' }],
    ['campaign:Fall 2025', { kind: 'campaign', which: 'named', name: 'Fall 2025' }],
    ['totd:2026-11', { kind: 'totd', year: 2026, month: 11 }],
    ['club:19489/28446', { kind: 'club', clubId: 19489, campaignId: 28446 }],
    ['tmx-pack:4242', { kind: 'tmx-pack', packId: 4242 }],
    ['https://trackmania.io/#/campaigns/19489/28446', { kind: 'club', clubId: 19489, campaignId: 28446 }],
    ['https://trackmania.exchange/mappack/view/4242', { kind: 'tmx-pack', packId: 4242 }],
  ])('reads %s', (text, source) => {
    expect(parseListSource(text)).toEqual({ ok: true, source });
  });

  it('writes each source back in a form it reads again', () => {
    for (const text of ['campaign:current', 'campaign:Fall 2025', 'totd:2026-03', 'club:1/2', 'tmx-pack:9']) {
      const parsed = parseListSource(text);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) {
        expect(formatListSource(parsed.source)).toBe(text);
        expect(parseListSource(formatListSource(parsed.source))).toEqual(parsed);
      }
    }
  });

  it.each([
    ['totd:2026-13', 'is not a month; write totd:YYYY-MM'],
    ['totd:26-11', 'is not a month'],
    ['club:19489', 'write club:<clubId>/<campaignId>'],
    ['club:1/2/3', 'write club:<clubId>/<campaignId>'],
    ['tmx-pack:abc', 'is not a map pack number'],
    ['campaign:', 'say which campaign'],
    ['season:1', 'is not a list source'],
    ['https://trackmania.exchange/mapshow/12', 'a single map link is not a list source'],
    ['https://trackmania.io/#/player/5b4d42f4-c2de-407d-b367-cbff3fe817bc', 'a player link is not a list source'],
    ['https://trackmania.exchange/mappack/view/%zz', 'malformed %-escape'],
  ])('refuses %s, saying why', (text, reason) => {
    const parsed = parseListSource(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });
});
