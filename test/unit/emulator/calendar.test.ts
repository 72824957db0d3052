// The game's calendar as of a moment (calendar.ts): seasons open at 17:00 Paris time on the first of January, April,
// July and October, a Track of the Day at 19:00 Paris time; checked mid-month, at a month's end, across summer time
// and across the year.
import { describe, expect, it } from 'vitest';
import { nextTotdAfter, seasonAt, totdMonthsAt, totdStart } from '../../../src-main/emulator/calendar.ts';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('the game\'s calendar', () => {
  it('seasons: the one running, the ones before, opening at 17:00 Paris time (16:00 UTC in winter, 15:00 in summer)', () => {
    expect(seasonAt(at('2026-11-15T20:00:00Z'))).toEqual({ name: 'Fall 2026', startMs: at('2026-10-01T15:00:00Z'), endMs: at('2027-01-01T16:00:00Z') });
    expect(seasonAt(at('2026-11-15T20:00:00Z'), 1).name).toBe('Summer 2026');
    expect(seasonAt(at('2026-11-15T20:00:00Z'), 2)).toMatchObject({ name: 'Spring 2026', startMs: at('2026-04-01T15:00:00Z'), endMs: at('2026-07-01T15:00:00Z') });
    expect(seasonAt(at('2026-02-10T00:00:00Z'), 2).name).toBe('Summer 2025');
  });

  it('the year change: Fall 2026 runs until 2027-01-01 16:00 UTC, then Winter 2027', () => {
    expect(seasonAt(at('2027-01-01T15:59:59Z')).name).toBe('Fall 2026');
    expect(seasonAt(at('2027-01-01T16:00:00Z'))).toMatchObject({ name: 'Winter 2027', startMs: at('2027-01-01T16:00:00Z'), endMs: at('2027-04-01T15:00:00Z') });
    expect(seasonAt(at('2027-01-01T16:00:00Z'), 1).name).toBe('Fall 2026');
  });

  it('Tracks of the Day: mid-month, the days opened by now; the next one tomorrow at 19:00 Paris time', () => {
    expect(totdMonthsAt(at('2026-11-15T20:00:00Z'))).toEqual({ current: '2026-11', daysOpened: 15, previous: '2026-10' });
    // Before the day's opening (18:00 UTC in winter), the day before is the latest.
    expect(totdMonthsAt(at('2026-11-15T17:59:59Z'))).toMatchObject({ current: '2026-11', daysOpened: 14 });
    expect(iso(nextTotdAfter(at('2026-11-15T20:00:00Z')))).toBe('2026-11-16T18:00:00.000Z');
    expect(iso(totdStart('2026-05', 1))).toBe('2026-05-01T17:00:00.000Z');
  });

  it('summer time ends on the last Sunday of October: a Track of the Day opens an hour later in UTC from that day', () => {
    expect(iso(totdStart('2026-10', 24))).toBe('2026-10-24T17:00:00.000Z');
    expect(iso(totdStart('2026-10', 25))).toBe('2026-10-25T18:00:00.000Z');
    expect(iso(totdStart('2026-03', 28))).toBe('2026-03-28T18:00:00.000Z');
    expect(iso(totdStart('2026-03', 29))).toBe('2026-03-29T17:00:00.000Z');
  });

  it('a month\'s end: every day opened, the next one the next month\'s first; until then the month is still the current one', () => {
    expect(totdMonthsAt(at('2026-11-30T20:00:00Z'))).toEqual({ current: '2026-11', daysOpened: 30, previous: '2026-10' });
    expect(iso(nextTotdAfter(at('2026-11-30T20:00:00Z')))).toBe('2026-12-01T18:00:00.000Z');
    expect(totdMonthsAt(at('2026-12-01T12:00:00Z'))).toEqual({ current: '2026-11', daysOpened: 30, previous: '2026-10' });
    expect(totdMonthsAt(at('2026-12-01T18:00:00Z'))).toEqual({ current: '2026-12', daysOpened: 1, previous: '2026-11' });
  });

  it('the year change: December is current until 1 January\'s Track of the Day opens, then January with December before it', () => {
    expect(totdMonthsAt(at('2027-01-01T12:00:00Z'))).toEqual({ current: '2026-12', daysOpened: 31, previous: '2026-11' });
    expect(iso(nextTotdAfter(at('2027-01-01T12:00:00Z')))).toBe('2027-01-01T18:00:00.000Z');
    expect(totdMonthsAt(at('2027-01-01T18:30:00Z'))).toEqual({ current: '2027-01', daysOpened: 1, previous: '2026-12' });
  });
});
