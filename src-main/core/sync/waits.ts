// Every wait a sync makes is bounded (issue 9 §3): a host that asks for a longer wait than a sync will make stops
// being asked, with one line saying when to try again; a service that cannot be reached ends the sync early, in one
// line, instead of one identical error per map.
import { ErrorCode, HttpError, NadeoError } from '../nadeo/index.ts';

/** The longest wait a sync makes for a host that asked (Retry-After); the client's own limit is the same. */
export const MAX_SYNC_WAIT_MS = 120_000;

/** Network failures in a row, with no answer between them, after which a sync stops trying. */
export const UNREACHABLE_AFTER_FAILURES = 3;

/** Whether the error is the service not answering at all (no connection, no answer in time), not an answer. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof NadeoError && (error.code === ErrorCode.NETWORK || error.code === ErrorCode.TIMEOUT);
}

export function unreachableMessage(answeredBefore: boolean): string {
  return answeredBefore
    ? "Nadeo's service can no longer be reached; what this sync fetched before is kept, and the next sync goes on from there."
    : "Nadeo's service cannot be reached; nothing was changed. Check the connection and try again later.";
}

/** The client's code for a Retry-After longer than it will sleep (src-main/core/nadeo/errors.ts). */
const LONG_WAIT_CODE = 'RETRY_AFTER_TOO_LONG';

export interface LongWait {
  /** The host that asked, or the sync's own key for it. */
  host: string;
  /** When it may be asked again (ISO). */
  retryAt: string;
}

/**
 * The wait a host asked for when it is longer than a sync makes (the client refuses to sleep that long and says
 * so), else undefined. `host` names the host when the caller knows it better than the error does.
 */
export function longWaitOf(error: unknown, host?: string): LongWait | undefined {
  if (!(error instanceof NadeoError)) return undefined;
  // A 429 whose Retry-After the client would not wait through: the same, said by an older client.
  const tooLong = error instanceof HttpError && error.code === ErrorCode.RATE_LIMITED && (error.retryAfterMs ?? 0) > MAX_SYNC_WAIT_MS;
  if ((error.code as string) !== LONG_WAIT_CODE && !tooLong) return undefined;
  const e = error as NadeoError & { host?: unknown; retryAt?: unknown; retryAfterMs?: unknown };
  const retryAt = typeof e.retryAt === 'number' || e.retryAt instanceof Date
    ? new Date(e.retryAt)
    : new Date(Date.now() + (typeof e.retryAfterMs === 'number' ? e.retryAfterMs : 0));
  return { host: host ?? (typeof e.host === 'string' ? e.host : 'the service'), retryAt: retryAt.toISOString() };
}

/** "2026-12-05 14:03", in local time: when to try again, as a player reads it. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function waitMessage(wait: LongWait): string {
  return `Nadeo's service (${wait.host}) asked Trackwatch to wait before asking again; this sync stopped asking it. ` +
    `Try again after ${localTime(wait.retryAt)}.`;
}
