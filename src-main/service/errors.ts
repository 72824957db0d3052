import type { ErrorCode, ErrorValue } from '../contract/result.ts';
import { NadeoError } from '../core/nadeo/index.ts';
import { StoreError, localFault, type LocalFaultCode } from '../core/store/errors.ts';
import { SyncLockedError } from '../core/sync/lock.ts';

/** Another process (the app in its demo, a `trackwatch demo` under way) has the demo's folder open. */
export class DemoInUseError extends Error {
  readonly pid: number | undefined;
  constructor(dataDir: string, pid: number | undefined) {
    super(`the demo's folder ${dataDir} is in use by another Trackwatch (${pid === undefined ? 'a process starting up' : `process ${pid}`}); leave the demo there (or let it finish), then try again.`);
    this.name = 'DemoInUseError';
    this.pid = pid;
  }
}

/** An error the player can act on, with a stable code; it crosses to the renderer as a value. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean | undefined;
  constructor(code: ErrorCode, message: string, retryable?: boolean) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.retryable = retryable;
  }
}

const BY_STORE_CODE: Record<string, ErrorCode> = {
  INVALID_INPUT: 'invalid_input',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  DATABASE_FROM_THE_FUTURE: 'unsupported',
  PATH_OUTSIDE_DATA_FOLDER: 'forbidden',
};

/** The API core's stable codes → the contract's. */
const BY_NADEO_CODE: Record<string, { code: ErrorCode; retryable?: boolean }> = {
  UNAUTHORIZED: { code: 'auth_failed' },
  FORBIDDEN: { code: 'auth_failed' },
  NETWORK: { code: 'offline', retryable: true },
  UNREACHABLE: { code: 'offline', retryable: true },
  TIMEOUT: { code: 'offline', retryable: true },
  RATE_LIMITED: { code: 'rate_limited', retryable: true },
  RATE_LIMITED_LONG: { code: 'rate_limited', retryable: false },
  ABORTED: { code: 'cancelled' },
  CONFIG: { code: 'not_configured' },
  VALIDATION: { code: 'invalid_input' },
  NOT_FOUND: { code: 'not_found' },
};

/** A disk or database fault on this machine → the contract's codes; a locked database is worth trying again. */
const BY_LOCAL_FAULT: Record<LocalFaultCode, { code: ErrorCode; retryable?: boolean }> = {
  DISK_FULL: { code: 'local_fault', retryable: true },
  DISK_ERROR: { code: 'local_fault' },
  READ_ONLY: { code: 'read_only' },
  DATABASE_DAMAGED: { code: 'local_fault' },
  DATABASE_LOCKED: { code: 'busy', retryable: true },
  DATA_FOLDER_UNUSABLE: { code: 'local_fault' },
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Any thrown thing → the error value the renderer gets. Unknown errors keep their message, never a stack. */
export function toErrorValue(error: unknown): ErrorValue {
  if (error instanceof ServiceError) {
    return error.retryable === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, retryable: error.retryable };
  }
  const message = error instanceof Error ? error.message : String(error);
  const fault = localFault(error);
  if (fault) {
    const known = BY_LOCAL_FAULT[fault.code];
    return known.retryable === undefined ? { code: known.code, message: capitalize(fault.message) } : { code: known.code, message: capitalize(fault.message), retryable: known.retryable };
  }
  if (error instanceof StoreError) return { code: BY_STORE_CODE[error.code] ?? 'internal', message: capitalize(message) };
  if (error instanceof NadeoError) {
    const known = BY_NADEO_CODE[error.code] ?? { code: 'service_error' as const };
    return { code: known.code, message, retryable: known.retryable ?? error.retryable };
  }
  if (error instanceof Error && error.name === 'AbortError') return { code: 'cancelled', message: 'Cancelled.' };
  // Another Trackwatch (the command line next to the app) holds the folder's sync or demo: it says which process.
  if (error instanceof SyncLockedError || error instanceof DemoInUseError) {
    return { code: 'busy', message: capitalize(message), retryable: true };
  }
  if (causeCode(error)) return { code: 'offline', message: `The service cannot be reached (${causeCode(error)}).`, retryable: true };
  return { code: 'internal', message: message || 'Something went wrong.' };
}

/** The store writes messages to be embedded ("there is no list X"); standing alone they start with a capital. */
function capitalize(message: string): string {
  return message ? message[0]!.toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.') : message;
}

/**
 * Keeps a long-running process (the desktop app, `trackwatch serve`) up through a bug: an unhandled rejection or an
 * uncaught exception is reported (`report` gets one line and the stack) instead of ending the process, which would
 * take every window and sync with it. Returns the function that removes the reporter.
 */
export function keepRunningOnUnexpectedErrors(report: (line: string, stack: string | undefined) => void): () => void {
  const onError = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    report(`unexpected error (Trackwatch keeps running): ${message || 'unknown'}`, error instanceof Error ? error.stack : undefined);
  };
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  return () => {
    process.off('unhandledRejection', onError);
    process.off('uncaughtException', onError);
  };
}
