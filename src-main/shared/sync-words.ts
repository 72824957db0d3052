// How a sync ended, in the words the window and the command line both use where they show its time: a failed,
// cancelled or partial sync never reads as "synced". Pure, no imports.

export interface SyncEnd {
  outcome: 'ok' | 'partial' | 'failed' | 'cancelled';
  /** Maps whose records could not be read. */
  failedMaps: number;
  /** The kind of trouble (service/sync-outcome.ts): offline, auth_failed, rate_limited, service_error, local_fault. */
  error: { code: string } | null;
}

const TROUBLE: Record<string, string> = {
  offline: 'service unreachable',
  auth_failed: 'login refused',
  rate_limited: 'asked to slow down',
  service_error: 'service error',
  local_fault: 'problem with this computer\'s disk or database',
};

/** Why a sync failed, in two or three words. */
export function troubleWords(error: { code: string } | null | undefined): string {
  return (error && TROUBLE[error.code]) ?? 'service error';
}

/** The outcome alone: "synced", "failed: service unreachable", "cancelled", "partial: 3 maps failed". */
export function syncEndWords(end: SyncEnd): string {
  switch (end.outcome) {
    case 'ok':
      return 'synced';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return `failed: ${troubleWords(end.error)}`;
    case 'partial':
      return end.failedMaps > 0 ? `partial: ${end.failedMaps} map${end.failedMaps === 1 ? '' : 's'} failed` : `partial: ${troubleWords(end.error)}`;
  }
}

/**
 * The latest sync with its time (already in words: "2 min ago", "24 Nov 2026, 14:05"): "synced 2 min ago",
 * "last sync failed 2 min ago: service unreachable", "sync cancelled 2 min ago", "partial sync 2 min ago: 3 maps
 * failed"; "never synced" without one.
 */
export function lastSyncWords(end: SyncEnd | null | undefined, when: string): string {
  if (!end) return 'never synced';
  switch (end.outcome) {
    case 'ok':
      return `synced ${when}`;
    case 'cancelled':
      return `sync cancelled ${when}`;
    case 'failed':
      return `last sync failed ${when}: ${troubleWords(end.error)}`;
    case 'partial':
      return `partial sync ${when}: ${syncEndWords(end).replace(/^partial: /, '')}`;
  }
}
