// Checks on the IDs the store is handed: they end up in SQL parameters and, for replays, in file paths.
import { isMapUid, isUuid } from '../../shared/ids.ts';
import { invalidInput } from './errors.ts';

/** A map, account or record ID: a UUID, returned in lower case as Nadeo writes them. */
export function uuid(value: unknown, what: string): string {
  if (typeof value !== 'string' || !isUuid(value)) throw invalidInput(`${what} must be a UUID, got ${describe(value)}`);
  return value.toLowerCase();
}

export function mapUid(value: unknown): string {
  if (typeof value !== 'string' || !isMapUid(value)) throw invalidInput(`map UID ${describe(value)} is not a map UID (18-32 letters and digits)`);
  return value;
}

/** A scope is 'PersonalBest' or a season ID. */
export const PERSONAL_BEST = 'PersonalBest';

export function scope(value: unknown): string {
  if (value === PERSONAL_BEST) return PERSONAL_BEST;
  if (typeof value === 'string' && isUuid(value)) return value.toLowerCase();
  throw invalidInput(`scope must be 'PersonalBest' or a season ID, got ${describe(value)}`);
}

const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
// The service writes `2024-01-01T12:00:00+00:00`: already UTC, only the spelling differs.
const SERVICE_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const UTC_OFFSET = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?(?:Z|[+-]00:?00)$/;

/** Timestamps are kept as UTC ISO strings so they sort and compare as text; an unreadable one is kept as given. */
export function timestamp(value: string): string {
  // The service's own spelling comes on every record a sync writes: tried first, one test, no captures.
  if (SERVICE_UTC.test(value)) return `${value.slice(0, 19)}.000Z`;
  if (UTC_ISO.test(value)) return value;
  const utc = UTC_OFFSET.exec(value);
  if (utc) return `${utc[1]}.${(utc[2] ?? '').padEnd(3, '0')}Z`;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** A moment given by the caller (a Date or a parseable string), as the UTC ISO text the store compares against. */
export function moment(value: Date | string, what: string): string {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw invalidInput(`${what} is not a date: ${describe(value)}`);
  const iso = new Date(ms).toISOString();
  // Stored times are 'YYYY-...' text: a year outside 0000-9999 ('+010000-...') would compare wrongly against them.
  if (!/^\d{4}-/.test(iso)) throw invalidInput(`${what} must be a date between the years 0000 and 9999, got ${describe(value)}`);
  return iso;
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return String(value);
}
