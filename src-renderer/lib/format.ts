// How values read in the UI: Trackmania's conventions come from the shared module, the rest is here.
import { stripFormatting } from '../../src-main/shared/format.ts';
import type { PlayerSummary } from '../../src-main/contract/index.ts';
import { playerLabel } from '../../src-main/shared/leaderboard.ts';

export { formatDelta, formatScore, formatTime, medalName, parseFormatting, stripFormatting } from '../../src-main/shared/format.ts';
export type { FormattedSegment, MedalName } from '../../src-main/shared/format.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 hours ago", "yesterday", "just now"; "never" without a date. */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return 'never';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return 'unknown';
  const diff = at - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return 'just now';
}

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : dateTime.format(at);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : dateOnly.format(at);
}

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "about 2 min left", "12 s left". */
export function formatEta(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** The name shown for a player (shared/leaderboard.ts playerLabel) as plain text, formatting codes stripped. */
export function playerName(player: Pick<PlayerSummary, 'nickname' | 'displayName' | 'accountId'>): string {
  const label = playerLabel(player);
  return label === player.nickname ? label : stripFormatting(label);
}

/** Too old to trust without saying so. */
export const STALE_AFTER_MS = 24 * 3600_000;

export function isStale(iso: string | null | undefined, now: number = Date.now()): boolean {
  if (!iso) return true;
  const at = Date.parse(iso);
  return Number.isNaN(at) || now - at > STALE_AFTER_MS;
}
