// How the command ends: one line on stderr and an exit code a script can branch on, never a stack trace for a fault
// the user can act on (a full disk, a locked database, another sync running...).
import { NadeoError } from '../core/nadeo/index.ts';
export { inertText as terminalSafe } from '../core/refs.ts';
import { LocalFaultCode, StoreError, localFault } from '../core/store/index.ts';
import { SyncLockedError } from '../core/sync/lock.ts';

/** Exit codes (the BSD sysexits where one fits). */
export const ExitCode = {
  OK: 0,
  /** Something the user can fix: bad input, an unknown list, a failed sync. */
  ERROR: 1,
  /** The database is damaged. */
  DATA_ERROR: 65,
  /** A bug: the unexpected, with its stack, to report. */
  SOFTWARE: 70,
  /** The data folder (or the export's destination) cannot be used: a file where a folder should be. */
  CANT_CREATE: 73,
  /** The disk is full or failed. */
  IO_ERROR: 74,
  /** Try again later: the database is locked, another sync runs on this folder. */
  TEMP_FAIL: 75,
  /** The data folder cannot be written. */
  NO_PERMISSION: 77,
  /** Cancelled with Ctrl-C. */
  CANCELLED: 130,
} as const;

/** An error the user can act on: printed as one line, without a stack trace. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = ExitCode.ERROR) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** The player cancelled the command (Ctrl-C, SIGTERM, SIGHUP): exit 130, one line saying what is kept. */
export class CancelledError extends UserError {
  constructor(message: string) {
    super(message, ExitCode.CANCELLED);
    this.name = 'CancelledError';
  }
}

/** Whether an error ends the command as cancelled (exit 130). */
export function isCancel(error: unknown): boolean {
  return describeFailure(error)?.exitCode === ExitCode.CANCELLED;
}

const BY_FAULT: Record<LocalFaultCode, number> = {
  DISK_FULL: ExitCode.IO_ERROR,
  DISK_ERROR: ExitCode.IO_ERROR,
  READ_ONLY: ExitCode.NO_PERMISSION,
  DATABASE_DAMAGED: ExitCode.DATA_ERROR,
  DATABASE_LOCKED: ExitCode.TEMP_FAIL,
  DATA_FOLDER_UNUSABLE: ExitCode.CANT_CREATE,
};

/** The one line and the exit code an error ends the command with; undefined for the unexpected (a bug). */
export function describeFailure(error: unknown): { message: string; exitCode: number } | undefined {
  if (error instanceof UserError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof SyncLockedError) return { message: error.message, exitCode: ExitCode.TEMP_FAIL };
  // A disk or database fault anywhere below (SQLite's, the file system's): what happened, and what to do.
  const fault = localFault(error);
  if (fault) return { message: fault.message, exitCode: BY_FAULT[fault.code] };
  // The core's own errors already say what was wrong and what to do; nothing stored is lost by them.
  if (error instanceof NadeoError || error instanceof StoreError) return { message: error.message, exitCode: ExitCode.ERROR };
  if (error instanceof Error && error.name === 'DemoInUseError') return { message: error.message, exitCode: ExitCode.TEMP_FAIL };
  return undefined;
}
