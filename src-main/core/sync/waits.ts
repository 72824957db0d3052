// Every wait a sync makes is bounded (issue 9 §3): a host that asks for a longer wait than a sync will make stops
// being asked, with one line saying when to try again; a service that cannot be reached ends the sync early, in one
// line, instead of one identical error per map.
import { RetryLaterError } from '../nadeo/index.ts';

/** Whether the error is the service not answering at all (no connection, no answer in time), not an answer. */
export { isUnreachable } from '../nadeo/index.ts';

/** Calls in a row that met no answer (isUnreachable), with none answered between them, after which a sync stops. */
export const UNREACHABLE_AFTER_FAILURES = 3;

export function unreachableMessage(answeredBefore: boolean): string {
  return answeredBefore
    ? "Nadeo's service can no longer be reached; what this sync fetched before is kept, and the next sync goes on from there."
    : "Nadeo's service cannot be reached; nothing was changed. Check the connection and try again later.";
}

export interface LongWait {
  /** The host that asked, as the sync keys it. */
  host: string;
  /** When it may be asked again (ISO). */
  retryAt: string;
}

/**
 * The wait a host asked for when it is longer than the client waits through (the client then fails every call to
 * that host at once, RetryLaterError), else undefined. `host` names the host as the caller keys it.
 */
export function longWaitOf(error: unknown, host?: string): LongWait | undefined {
  if (!(error instanceof RetryLaterError)) return undefined;
  return { host: host ?? hostOf(error.origin), retryAt: error.retryAt.toISOString() };
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
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
