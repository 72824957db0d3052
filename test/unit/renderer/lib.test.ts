import { describe, expect, it } from 'vitest';
import { alignSeries, chartPadding, chartValue, formatChartDate, formatChartValue, pointText, tickSteps } from '../../../src-renderer/lib/chart.ts';
import { contrast, fromHsl, luminance, MIN_CONTRAST, readableColor } from '../../../src-renderer/lib/colors.ts';
import { formatBytes, formatEta, isStale, playerName, relativeTime } from '../../../src-renderer/lib/format.ts';
import { parseSseChunk } from '../../../src-renderer/lib/api/http.ts';
import { refsToSend, splitRefs } from '../../../src-renderer/lib/refs.ts';
import { parseMapRefs } from '../../../src-main/core/refs.ts';
import { parseRoute, routeHref } from '../../../src-renderer/lib/routes.ts';
import type { Route } from '../../../src-renderer/lib/routes.ts';
import { goTarget } from '../../../src-renderer/lib/shortcuts.ts';

describe('values as players read them', () => {
  it('Add maps sends only what the last look-up did not turn down: nothing when only bad refs remain', () => {
    const left = splitRefs('ZZZZZZZZZZZZZZZZZZZZZZZZZZZ\nnot-a-map!');
    expect(refsToSend(left, new Set(left))).toEqual([]);
    // A ref fixed or added after is sent; the bad ones still are not.
    const edited = splitRefs('ZZZZZZZZZZZZZZZZZZZZZZZZZZY\nnot-a-map!');
    expect(refsToSend(edited, new Set(left))).toEqual(['ZZZZZZZZZZZZZZZZZZZZZZZZZZY']);
  });

  it("the chart's dates name the month in the reader's locale, never a numeric 10/24 (issue 17 §2.10)", () => {
    const at = Date.parse('2026-10-24T18:30:00Z') / 1000;
    const day = 86_400;
    expect(formatChartDate(at, 60 * day, 'en-GB')).toBe('24 Oct');
    expect(formatChartDate(at, 60 * day, 'en-US')).toBe('Oct 24');
    expect(formatChartDate(at, 60 * day, 'fr-FR')).toBe('24 oct.');
    expect(formatChartDate(at, 400 * day, 'en-GB')).toBe('Oct 2026');
    expect(formatChartDate(at, day, 'en-GB')).toMatch(/^24 Oct(,| at)? \d{2}:\d{2}$/);
    for (const locale of ['en-GB', 'en-US', 'de-DE', 'ja-JP']) expect(formatChartDate(at, 60 * day, locale)).not.toMatch(/^\d{1,2}\/\d{1,2}$/);
  });

  it('a progression chart plots what the map ranks by: times, Stunt points, Platform respawns', () => {
    const run = { hidden: false, time: 45_120, score: 1266, respawnCount: 2 };
    expect(chartValue('race', run)).toBe(45_120);
    expect(chartValue('clones', run)).toBe(45_120);
    expect(chartValue('stunt', run)).toBe(1266);
    expect(chartValue('platform', run)).toBe(2);
    expect(chartValue('platform', { ...run, respawnCount: null })).toBeNull();
    expect(chartValue('race', { ...run, hidden: true })).toBeNull();
    expect(formatChartValue('race', 61_234)).toBe('1:01.234');
    expect(formatChartValue('stunt', 12_345)).toBe('12,345 pts');
    expect(formatChartValue('platform', 1)).toBe('1 respawn');
    expect(chartPadding('platform', 2, 2)).toEqual([1, 3]);
    expect(chartPadding('race', 45_000, 45_000)).toEqual([44_800, 45_200]);
  });

  it('a chart ticks whole respawns and points only, and a point says its whole result', () => {
    for (const kind of ['platform', 'stunt'] as const) expect(tickSteps(kind)!.every(Number.isInteger)).toBe(true);
    expect(tickSteps('platform')!.slice(0, 3)).toEqual([1, 2, 5]);
    expect(tickSteps('race')).toBeUndefined();
    // A Platform run that kept its respawns and cut its time plots flat: its tooltip says the time.
    const run = { hidden: false, time: 67_102, score: null, respawnCount: 2 };
    expect(pointText('platform', { at: 0, value: 2, result: run })).toBe('2 respawns (1:07.102)');
    expect(pointText('platform', { at: 0, value: 2 })).toBe('2 respawns');
    expect(pointText('race', { at: 0, value: 67_102, result: run })).toBe('1:07.102');
  });

  it('tells dates relative to now, and says when data is stale', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(relativeTime('2026-11-21T09:00:00Z', now)).toBe('3 hours ago');
    expect(relativeTime(null, now)).toBe('never');
    expect(isStale('2026-11-19T12:00:00Z', now)).toBe(true);
    expect(isStale('2026-11-21T11:00:00Z', now)).toBe(false);
  });

  it('sizes, time left and names', () => {
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatEta(12_400)).toBe('13 s left');
    expect(formatEta(null)).toBe('');
    expect(playerName({ accountId: 'abcdef123456', nickname: null, displayName: '$f00Red$z Baron' })).toBe('Red Baron');
    expect(playerName({ accountId: 'abcdef123456', nickname: null, displayName: null })).toBe('abcdef12');
    // Your nickname for a player comes first, as typed (a `$` in it is not a formatting code).
    expect(playerName({ accountId: 'abcdef123456', nickname: 'Cash$$', displayName: '$f00Red$z Baron' })).toBe('Cash$$');
  });
});

describe('name colours', () => {
  /** The contrast a colour as FormattedName writes it (`hsl(h s% l%)`) has against a background. */
  function contrastOn(css: string, background: [number, number, number]): number {
    const [h, s, l] = /^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(css)!.slice(1).map(Number) as [number, number, number];
    return contrast(luminance(fromHsl(h, s / 100, l / 100)), luminance(background.map((c) => c / 255) as [number, number, number]));
  }
  const white: [number, number, number] = [255, 255, 255];
  const lightRow: [number, number, number] = [0xee, 0xf0, 0xf5];
  const darkRow: [number, number, number] = [0x20, 0x25, 0x32];

  it('keeps a colour that reads well as it is, hue and saturation always', () => {
    expect(readableColor('#ffcc00', 'dark')).toBe('hsl(48 100% 50%)');
    expect(readableColor('#ffffff', 'dark')).toBe('hsl(0 0% 100%)');
    expect(readableColor('#000000', 'light')).toBe('hsl(0 0% 0%)');
    expect(readableColor('not a colour', 'dark')).toBeNull();
    expect(readableColor(null, 'light')).toBeNull();
  });

  it('darkens the game\'s bright colours (lime, teal, yellow, white) on the light theme until they read on it', () => {
    for (const hex of ['#66ff00', '#00ccaa', '#ffff00', '#ffffff', '#ff9900']) {
      const css = readableColor(hex, 'light')!;
      expect(contrastOn(css, lightRow), `${hex} → ${css}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(contrastOn(css, white)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
    // Lime stays a green: only its lightness moved.
    expect(readableColor('#66ff00', 'light')).toMatch(/^hsl\(96 100% \d+%\)$/);
  });

  it('lightens dark colours on the dark theme', () => {
    for (const hex of ['#000000', '#0000ff', '#330066', '#800000']) {
      const css = readableColor(hex, 'dark')!;
      expect(contrastOn(css, darkRow), `${hex} → ${css}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });
});

describe('pasted text', () => {
  const [uid1, uid2, mapId] = ['olsKnq_qAghcVAnEkoeUnVHFZei', 'PrF2m3Zq5tYxWnY8Wj0k0eFzG1a', '5b4d42f4-c2de-407d-b367-cbff3fe817bc'];
  const link = `https://trackmania.io/#/leaderboard/${uid2}`;

  it('splits lines of map references on spaces, commas and semicolons, once each', () => {
    expect(splitRefs(`${uid1}\n${uid2}, ${mapId};${link}  ${uid1}\n\n`)).toEqual([uid1, uid2, mapId, link]);
    expect(splitRefs(`trackmania.exchange/mapshow/12345 ${uid1}`)).toEqual(['trackmania.exchange/mapshow/12345', uid1]);
  });

  it('keeps a line whose pieces are not all map references whole: one reference, refused once', () => {
    const refs = splitRefs(`${uid1}\nthis is not a map\n${uid2} my favourite\nnot-a-map!\n${mapId}`);
    expect(refs).toEqual([uid1, 'this is not a map', `${uid2} my favourite`, 'not-a-map!', mapId]);
    // The main process reads each entry it is sent by the same rule: a line kept whole is refused whole, once.
    expect(parseMapRefs(refs).map((r) => (r.kind === 'invalid' ? `invalid: ${r.input}` : r.kind))).toEqual([
      'uid', 'invalid: this is not a map', `invalid: ${uid2} my favourite`, 'invalid: not-a-map!', 'id',
    ]);
    // Several references in one argument of the command line still split.
    expect(parseMapRefs([`${uid1},${uid2}`]).map((r) => r.kind)).toEqual(['uid', 'uid']);
  });
});

describe('routes', () => {
  const routes: Route[] = [
    { name: 'home' },
    { name: 'welcome' },
    { name: 'list', list: 'Winter / 2026 #1', tab: 'maps' },
    { name: 'list', list: 'W', tab: 'players' },
    { name: 'compare', list: 'W' },
    { name: 'splits', list: 'W' },
    { name: 'map', list: 'W', mapUid: 'uid_1' },
    { name: 'map', list: 'W', mapUid: 'uid_1', tab: 'splits' },
    { name: 'player', list: 'W', accountId: 'acc' },
    { name: 'replays' },
    { name: 'settings' },
  ];

  it('round-trips every place through the hash, names with slashes included', () => {
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });

  it('falls back to the overview for unknown or malformed hashes', () => {
    expect(parseRoute('#/nowhere')).toEqual({ name: 'home' });
    expect(parseRoute('#/lists/%E0%A4%A')).toEqual({ name: 'home' });
  });

  it('maps g-shortcuts to places, list ones only inside a list', () => {
    expect(goTarget('c', 'W')).toEqual({ name: 'compare', list: 'W' });
    expect(goTarget('c', null)).toBeNull();
    expect(goTarget('s', null)).toEqual({ name: 'settings' });
  });
});

describe('event stream', () => {
  it('parses complete SSE blocks and keeps the unfinished rest for the next chunk', () => {
    const first = parseSseChunk(': hello\n\nevent: sync.progress\ndata: {"done":1}\n\nevent: pb.new\ndata: {"x"');
    expect(first.events).toEqual([{ name: 'sync.progress', data: '{"done":1}' }]);
    const second = parseSseChunk(first.rest + ':1}\n\n');
    expect(second.events).toEqual([{ name: 'pb.new', data: '{"x":1}' }]);
    expect(second.rest).toBe('');
  });
});

describe('chart data', () => {
  it('aligns series on the union of their instants, in seconds, with gaps as null', () => {
    const aligned = alignSeries([
      { label: 'a', color: '#fff', points: [{ at: 2000, value: 10 }, { at: 1000, value: 12 }] },
      { label: 'b', color: '#000', points: [{ at: 3000, value: 5 }] },
    ]);
    expect(aligned).toEqual([[1, 2, 3], [12, 10, null], [null, null, 5]]);
  });
});
