import { describe, expect, it } from 'vitest';
import {
  formatDelta, formatScore, formatTime, medalName, parseFormatting, stripFormatting,
} from '../../../src-main/shared/format.ts';
import { formatDelta as formatResultDelta } from '../../../src-main/shared/leaderboard.ts';

describe('formatTime', () => {
  it.each([
    [61234, '1:01.234'],
    [22340, '0:22.340'],
    [5, '0:00.005'],
    [3_600_000, '1:00:00.000'],
    [3_723_004, '1:02:03.004'],
    [null, '-:--.---'],
    [-1, '-:--.---'],
    [Number.NaN, '-:--.---'],
  ])('%s → %s', (ms, shown) => expect(formatTime(ms)).toBe(shown));
});

describe('formatDelta', () => {
  it.each([
    [-333, '-0:00.333'],
    [1020, '+0:01.020'],
    [0, '+0:00.000'],
    [-61234, '-1:01.234'],
    [null, ''],
  ])('%s → %s', (ms, shown) => expect(formatDelta(ms)).toBe(shown));
});

describe('scores and medals', () => {
  it('groups Stunt points and signs their deltas', () => {
    expect(formatScore(12345)).toBe('12,345');
    // A points delta is signed and grouped through the one delta formatter (shared/leaderboard.ts).
    expect(formatResultDelta({ unit: 'points', value: -1020, time: null })).toBe('-1,020 pts');
    expect(formatResultDelta({ unit: 'points', value: 120, time: null })).toBe('+120 pts');
  });
  it('names medals by the community convention', () => {
    expect([0, 1, 2, 3, 4].map(medalName)).toEqual(['none', 'bronze', 'silver', 'gold', 'author']);
    expect(medalName(9)).toBe('none');
  });
});

describe('parseFormatting', () => {
  it('strips the docs/nadeo-api.md example name', () => {
    expect(stripFormatting('$i$a1bLaserhawk $fff- Megacity Race')).toBe('Laserhawk - Megacity Race');
  });
  it('gives colours and styles per run', () => {
    const segments = parseFormatting('$i$a1bLaser $fff- $oRace');
    expect(segments).toEqual([
      expect.objectContaining({ text: 'Laser ', italic: true, color: '#aa11bb', bold: false }),
      expect.objectContaining({ text: '- ', italic: true, color: '#ffffff', bold: false }),
      expect.objectContaining({ text: 'Race', italic: true, color: '#ffffff', bold: true }),
    ]);
  });
  it('keeps a literal dollar and drops a lone one', () => {
    expect(stripFormatting('Cost $$5 $')).toBe('Cost $5 ');
  });
  it('tolerates short colours and unknown codes', () => {
    expect(parseFormatting('$f0Red')[0]).toMatchObject({ text: 'Red', color: '#ff0000' });
    expect(stripFormatting('$qAB$')).toBe('AB');
  });
  it('resets with $z and $g, and restores scopes with $< $>', () => {
    const segments = parseFormatting('$o$f00A$<$0f0B$>C$zD$f00E$gF');
    expect(segments.map((s) => [s.text, s.bold, s.color])).toEqual([
      ['A', true, '#ff0000'],
      ['B', true, '#00ff00'],
      ['C', true, '#ff0000'],
      ['D', false, null],
      ['E', false, '#ff0000'],
      ['F', false, null],
    ]);
  });
  it('keeps link text, records the target, and never invents markup', () => {
    const segments = parseFormatting('$l[https://example.com]Site$l done');
    expect(segments[0]).toMatchObject({ text: 'Site', link: 'https://example.com' });
    expect(stripFormatting('$l[https://example.com]Site$l done')).toBe('Site done');
    expect(stripFormatting('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });
  it('handles wide, narrow and normal width as one setting', () => {
    const [a, b, c] = parseFormatting('$wA$nB$mC');
    expect([a?.wide, a?.narrow, b?.wide, b?.narrow, c?.wide, c?.narrow]).toEqual([true, false, false, true, false, false]);
  });
});
