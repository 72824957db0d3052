import type { ErrorValue } from '../../../src-main/contract/index.ts';

/** A command's error value, thrown so callers can `try`; `code` is stable, `message` is for the player. */
export class ApiError extends Error {
  readonly code: ErrorValue['code'];
  readonly retryable: boolean;
  constructor(error: ErrorValue) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
    this.retryable = error.retryable ?? false;
  }
}

/** The message to show for anything a command threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
