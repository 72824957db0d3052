// Everything the store throws on purpose: a stable code for callers to branch on, a message for the player.

export const StoreErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  DATABASE_FROM_THE_FUTURE: 'DATABASE_FROM_THE_FUTURE',
  PATH_OUTSIDE_DATA_FOLDER: 'PATH_OUTSIDE_DATA_FOLDER',
} as const;
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** Nothing the store refuses gets better by trying again unchanged. */
  readonly retryable = false;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

/** The database's schema is newer than this build knows: opening it would risk damaging the player's data. */
export class DatabaseFromTheFutureError extends StoreError {
  readonly found: number;
  readonly known: number;
  constructor(found: number, known: number) {
    super(
      StoreErrorCode.DATABASE_FROM_THE_FUTURE,
      `this data folder was written by a newer Trackwatch (schema ${found}, this one knows ${known}); ` +
        'update Trackwatch or choose another data folder',
    );
    this.name = 'DatabaseFromTheFutureError';
    this.found = found;
    this.known = known;
  }
}

export function invalidInput(message: string): StoreError {
  return new StoreError(StoreErrorCode.INVALID_INPUT, message);
}

export function notFound(message: string): StoreError {
  return new StoreError(StoreErrorCode.NOT_FOUND, message);
}

/** What went wrong on this machine (not on the service), for a one-line message and an exit code. */
export const LocalFaultCode = {
  DISK_FULL: 'DISK_FULL',
  READ_ONLY: 'READ_ONLY',
  DATABASE_DAMAGED: 'DATABASE_DAMAGED',
  DATABASE_LOCKED: 'DATABASE_LOCKED',
  DATA_FOLDER_UNUSABLE: 'DATA_FOLDER_UNUSABLE',
  DISK_ERROR: 'DISK_ERROR',
} as const;
export type LocalFaultCode = (typeof LocalFaultCode)[keyof typeof LocalFaultCode];

/**
 * A fault of the disk or of the data folder: the message says what happened and what to do, and that what was
 * stored before is intact (SQLite rolls a failed write back; files are renamed into place only when complete).
 */
export class LocalFaultError extends Error {
  readonly code: LocalFaultCode;
  /** The system's or SQLite's own code (ENOSPC, SQLITE_BUSY...), for logs and tests. */
  readonly systemCode: string;
  readonly retryable: boolean;
  constructor(code: LocalFaultCode, systemCode: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LocalFaultError';
    this.code = code;
    this.systemCode = systemCode;
    this.retryable = code === LocalFaultCode.DATABASE_LOCKED;
  }
}

/**
 * The SQLite or file-system code behind an error. Another kind of code on the way (the API client's NETWORK, HTTP...)
 * ends the search: a connection refused is the network's fault, not the disk's. The client's FILE wraps a file error.
 */
function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (/^SQLITE_/.test(code) || /^E[A-Z]+$/.test(code)) return code;
      if (code !== 'FILE') return undefined;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The local fault behind an error (a SQLite or file-system code anywhere in its causes), as a LocalFaultError, or
 * undefined when it is not one. `where` names the data folder in the message.
 */
export function localFault(error: unknown, where?: string): LocalFaultError | undefined {
  if (error instanceof LocalFaultError) return error;
  const code = systemCodeOf(error);
  if (code === undefined) return undefined;
  const folder = where === undefined ? 'the data folder' : `the data folder ${where}`;
  const make = (kind: LocalFaultCode, message: string): LocalFaultError => new LocalFaultError(kind, code, message, { cause: error });
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return make(LocalFaultCode.DISK_FULL, `the disk holding ${folder} is full (${code}); free some space and try again. What was stored before is intact.`);
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return make(LocalFaultCode.READ_ONLY, `${folder} cannot be written (${code}): it is read-only or not yours. Reading works; to change anything, use a writable data folder (--data-dir).`);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return make(LocalFaultCode.DATABASE_DAMAGED, `the database in ${folder} is damaged (${code}); it was left as it is. Restore it from a backup, or move it away and Trackwatch starts a new one.`);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return make(LocalFaultCode.DATABASE_LOCKED, `the database in ${folder} is locked by another program (${code}); close it (a database browser, another Trackwatch) and try again.`);
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'ENOTDIR' || code === 'EISDIR') {
    return make(LocalFaultCode.DATA_FOLDER_UNUSABLE, `${folder} cannot be used (${code}): it must be a folder Trackwatch can create files in. Choose another with --data-dir.`);
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return make(LocalFaultCode.DISK_ERROR, `the disk holding ${folder} failed a read or write (${code}); check the disk. What was stored before is intact.`);
  }
  return undefined;
}
