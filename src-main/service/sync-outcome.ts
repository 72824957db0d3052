// A sync's outcome as the window shows it. The engine keeps what went wrong as text (core/sync/engine.ts, the
// sync_errors table), so the kind of trouble is read back from the API core's own wording (core/nadeo/http/answers.ts
// toNadeoError and httpErrorFor, core/nadeo/core/auth.ts).
import type { SyncOutcome } from '../core/store/index.ts';

export interface SyncError {
  /**
   * `offline`: the service could not be reached; `auth_failed`: the login was refused; `rate_limited`; `service_error`;
   * `local_fault`: this machine's disk or database (full, read-only, damaged, locked).
   */
  code: 'offline' | 'auth_failed' | 'rate_limited' | 'service_error' | 'local_fault';
  message: string;
}

const KINDS: readonly [RegExp, SyncError['code']][] = [
  [/failed or dropped|could not be resolved|timed out|no answer|no connection to|could not be reached|cannot be reached|\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/i, 'offline'],
  [/logging in to nadeo failed|needs a login|refused a freshly renewed token|oauth token failed|\bHTTP 40[13]\b/i, 'auth_failed'],
  [/slow down|\b429\b/, 'rate_limited'],
];

/** The kind of trouble an engine error message tells of. */
export function syncErrorOf(message: string): SyncError {
  const code = KINDS.find(([pattern]) => pattern.test(message))?.[1] ?? 'service_error';
  return { code, message };
}

/** Why a sync failed or was partial, from its first error; null when it went fine or the player cancelled it. */
export function syncErrorFor(outcome: SyncOutcome, firstError: string | null | undefined): SyncError | null {
  if (outcome !== 'failed' && outcome !== 'partial') return null;
  return firstError ? syncErrorOf(firstError) : null;
}

/** How many distinct maps an error list names (errors without a map are the run's own). */
export function failedMapsOf(errors: readonly { mapId: string | null }[]): number {
  return new Set(errors.flatMap((e) => (e.mapId === null ? [] : [e.mapId]))).size;
}
