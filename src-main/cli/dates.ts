// Dates typed on the command line are read strictly: a day that does not exist is refused, never shifted by the
// JavaScript Date (which reads 2024-02-30 as March 1st).
import { UserError } from './errors.ts';

/** The flags that take a date, by their option names. */
const DATE_FLAGS = { since: '--since', until: '--until' } as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Why a date written like ISO 8601 names no real moment, or undefined when it does (or is not written so). */
export function impossibleDate(text: string): string | undefined {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `there is no month ${m[2]}`;
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has ${days} days`;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return `there is no time ${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}`;
  const zone = m[7];
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(-2)) > 59)) return `there is no time zone ${zone}`;
  return undefined;
}

/** Refuses an impossible date in any of the command's date flags, naming the flag and what was typed. */
export function checkDateFlags(options: Record<string, unknown>): void {
  for (const [key, flag] of Object.entries(DATE_FLAGS)) {
    const value = options[key];
    if (typeof value !== 'string') continue;
    // Only ISO 8601: the JavaScript Date reads "Feb 30 2024" as March 1st and "0" or "1" as years.
    if (!ISO_DATE.test(value.trim())) throw new UserError(`${flag} "${value}" is not a date; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
    const why = impossibleDate(value);
    if (why) throw new UserError(`${flag} "${value}" is not a date: ${why}; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
  }
}
