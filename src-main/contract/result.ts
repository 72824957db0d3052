// Errors cross the process boundary as values: Electron keeps only the message of a thrown error.
import { z } from 'zod';

/** Stable codes the renderer can branch on; the message is for the player. */
export const ERROR_CODES = [
  'invalid_input',
  'unknown_command',
  'forbidden',
  'not_found',
  'conflict',
  'not_configured',
  'auth_failed',
  'offline',
  'rate_limited',
  'service_error',
  'busy',
  'unsupported',
  'cancelled',
  /** This machine's fault, not the service's: a full disk, a damaged database, a data folder that cannot be used. */
  'local_fault',
  /** The data folder cannot be written (read-only media, not yours): what is stored shows, nothing changes. */
  'read_only',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorValue = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean().optional(),
});
export type ErrorValue = z.output<typeof ErrorValue>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

export function okResult<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function errorResult(code: ErrorCode, message: string, retryable?: boolean): Result<never> {
  return { ok: false, error: retryable === undefined ? { code, message } : { code, message, retryable } };
}
