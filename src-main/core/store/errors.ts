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
