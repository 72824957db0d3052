// The game's calendar as of a moment (docs/emulator.md "Its clock"): which seasonal campaign runs, which Tracks of the
// Day have opened. A generated dataset is made as of its `now`, and the Live routes answer as of the server's `now`.
// Seasonal campaigns open on the first of January, April, July and October at 17:00 Paris time, a Track of the Day at
// 19:00 Paris time for a day (the Openplanet docs' example answers: 2024-10-01T15:00Z, 2025-01-01T16:00Z;
// docs/live/campaigns/totds.md: 2021-12-01T18:00Z).

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const SEASONS = ['Winter', 'Spring', 'Summer', 'Fall'] as const;

/** The last Sunday of a month (0-based), as a day of that month. */
function lastSunday(year: number, monthIndex: number): number {
  const last = new Date(Date.UTC(year, monthIndex + 1, 0));
  return last.getUTCDate() - last.getUTCDay();
}

/** Paris' offset from UTC: two hours of summer time from the last Sunday of March to the last Sunday of October (01:00 UTC), else one. */
function parisOffsetMs(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summer = Date.UTC(year, 2, lastSunday(year, 2), 1);
  const winter = Date.UTC(year, 9, lastSunday(year, 9), 1);
  return ms >= summer && ms < winter ? 2 * HOUR_MS : HOUR_MS;
}

/** `hour`:00 Paris time on a day (month 0-based), in ms. */
function parisTime(year: number, monthIndex: number, day: number, hour: number): number {
  const asUtc = Date.UTC(year, monthIndex, day, hour);
  return asUtc - parisOffsetMs(asUtc - HOUR_MS);
}

// ---- seasonal campaigns ------------------------------------------------------------------------------------------

export interface Season {
  /** "Fall 2026". */
  name: string;
  startMs: number;
  /** When the next one opens. */
  endMs: number;
}

/** Season number n: year * 4 + quarter (0 Winter .. 3 Fall). */
function seasonStart(n: number): number {
  return parisTime(Math.floor(n / 4), (n % 4) * 3, 1, 17);
}

/** The seasonal campaign running at `nowMs`, or the one `back` seasons before it. */
export function seasonAt(nowMs: number, back = 0): Season {
  const date = new Date(nowMs);
  let n = date.getUTCFullYear() * 4 + Math.floor(date.getUTCMonth() / 3);
  if (nowMs < seasonStart(n)) n -= 1;
  n -= back;
  return { name: `${SEASONS[n % 4]} ${Math.floor(n / 4)}`, startMs: seasonStart(n), endMs: seasonStart(n + 1) };
}

// ---- Tracks of the Day -------------------------------------------------------------------------------------------

/** 'YYYY-MM' of a year and a 1-based month. */
function monthKey(year: number, month: number): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** When a month's day's Track of the Day opens ('YYYY-MM', day 1-based); it lasts a day. */
export function totdStart(month: string, day: number): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return parisTime(y, m - 1, day, 19);
}

/**
 * The Track of the Day months as of `nowMs`: the current one (the month of the latest Track of the Day opened, so
 * at least its first day has), how many of its days have opened, and the month before it.
 */
export function totdMonthsAt(nowMs: number): { current: string; daysOpened: number; previous: string } {
  const date = new Date(nowMs);
  let year = date.getUTCFullYear();
  let month = date.getUTCMonth() + 1;
  // Before the first day's opening, the running Track of the Day is the last day of the month before.
  if (nowMs < totdStart(monthKey(year, month), 1)) [year, month] = month === 1 ? [year - 1, 12] : [year, month - 1];
  const current = monthKey(year, month);
  let daysOpened = 0;
  while (daysOpened < daysInMonth(current) && totdStart(current, daysOpened + 1) <= nowMs) daysOpened++;
  return { current, daysOpened, previous: month === 1 ? monthKey(year - 1, 12) : monthKey(year, month - 1) };
}

/** When the next Track of the Day opens after `nowMs`. */
export function nextTotdAfter(nowMs: number): number {
  const { current, daysOpened } = totdMonthsAt(nowMs);
  if (daysOpened < daysInMonth(current)) return totdStart(current, daysOpened + 1);
  const [y, m] = current.split('-').map(Number) as [number, number];
  return totdStart(m === 12 ? monthKey(y + 1, 1) : monthKey(y, m + 1), 1);
}
