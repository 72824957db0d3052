// One error taxonomy for everything the API core throws (ky's HTTPError/TimeoutError split, with stable codes).
// Messages say what went wrong and what to do; they never carry tokens, passwords or query strings with secrets.

export const ErrorCode = {
  HTTP: 'HTTP',
  VALIDATION: 'VALIDATION',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  URI_TOO_LONG: 'URI_TOO_LONG',
  RATE_LIMITED: 'RATE_LIMITED',
  /** The service asked for a wait longer than the client's cap: the host is paused until `retryAt`. */
  RATE_LIMITED_LONG: 'RATE_LIMITED_LONG',
  ROUTE_GONE: 'ROUTE_GONE',
  SCHEMA: 'SCHEMA',
  NETWORK: 'NETWORK',
  /** No answer at all: connection refused or reset, DNS failure, no route to the host. */
  UNREACHABLE: 'UNREACHABLE',
  TIMEOUT: 'TIMEOUT',
  ABORTED: 'ABORTED',
  CONFIG: 'CONFIG',
  BAD_URL: 'BAD_URL',
  TOO_LARGE: 'TOO_LARGE',
  TOO_MANY_REDIRECTS: 'TOO_MANY_REDIRECTS',
  FILE: 'FILE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface NadeoErrorOptions {
  retryable?: boolean;
  cause?: unknown;
}

/** Base of every error the API core throws; `code` is stable, `message` is for people. */
export class NadeoError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  constructor(code: ErrorCode, message: string, options: NadeoErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NadeoError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

/** The API's own error body (seed section 7); `info` is an object on map lookups, an array of strings on records. */
export interface ApiErrorBody {
  code: string;
  correlation_id?: string;
  message?: string;
  info?: Record<string, unknown> | string[];
}

export interface HttpErrorDetails {
  status: number;
  method: string;
  /** A route label without query string, e.g. `GET /maps/by-uid/`. */
  route: string;
  apiError?: ApiErrorBody;
  /** Delay the service asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** Length of the request-target that was sent, for 414s. */
  targetLength?: number;
}

/** The service answered with a status that is not a success. */
export class HttpError extends NadeoError {
  readonly status: number;
  readonly method: string;
  readonly route: string;
  /** The API's error code, e.g. `C-AA-00-03`, when the body was one of the API's own errors. */
  readonly apiCode: string | undefined;
  readonly info: Record<string, unknown> | string[] | undefined;
  readonly correlationId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly targetLength: number | undefined;
  constructor(code: ErrorCode, message: string, details: HttpErrorDetails, options: NadeoErrorOptions = {}) {
    super(code, message, options);
    this.name = 'HttpError';
    this.status = details.status;
    this.method = details.method;
    this.route = details.route;
    this.apiCode = details.apiError?.code;
    this.info = details.apiError?.info;
    this.correlationId = details.apiError?.correlation_id;
    this.retryAfterMs = details.retryAfterMs;
    this.targetLength = details.targetLength;
  }
}

/** A body did not have the shape the seed promises; `path` names the field, e.g. `records[3].recordScore.time`. */
export class SchemaError extends NadeoError {
  readonly path: string;
  readonly route: string;
  constructor(route: string, path: string, problem: string, options: NadeoErrorOptions = {}) {
    super(
      ErrorCode.SCHEMA,
      `${route} answered an unexpected body: ${path}: ${problem}. The service may have changed; update Trackwatch or report it.`,
      options,
    );
    this.name = 'SchemaError';
    this.path = path;
    this.route = route;
  }
}

/** The client was set up wrongly (missing contact, bad base URL, missing OAuth app...). Fix the settings. */
export class ConfigError extends NadeoError {
  constructor(message: string) {
    super(ErrorCode.CONFIG, message);
    this.name = 'ConfigError';
  }
}

/** Logging in failed or the service refused the credentials even after a fresh token. */
export class AuthError extends NadeoError {
  readonly status: number | undefined;
  constructor(message: string, status?: number, options: NadeoErrorOptions = {}) {
    super(ErrorCode.UNAUTHORIZED, message, options);
    this.name = 'AuthError';
    this.status = status;
  }
}

/** A caller passed something the service would reject (e.g. seasonId 'Personal_Best', a malformed map ID). */
export class InputError extends NadeoError {
  constructor(message: string) {
    super(ErrorCode.VALIDATION, message);
    this.name = 'InputError';
  }
}

/** The connection dropped or ended a body early, after the service had started to answer. Usually temporary. */
export class NetworkError extends NadeoError {
  constructor(message: string, options: NadeoErrorOptions & { code?: typeof ErrorCode.NETWORK | typeof ErrorCode.UNREACHABLE } = {}) {
    super(options.code ?? ErrorCode.NETWORK, message, { retryable: true, ...options });
    this.name = 'NetworkError';
  }
}

/**
 * The service could not be reached at all (connection refused or reset before any answer, DNS failure, no route):
 * code UNREACHABLE. Still a NetworkError, retried like one; see isUnreachable().
 */
export class UnreachableError extends NetworkError {
  constructor(message: string, options: NadeoErrorOptions = {}) {
    super(message, { ...options, code: ErrorCode.UNREACHABLE });
    this.name = 'UnreachableError';
  }
}

export class TimeoutError extends NadeoError {
  /** 'headers': nothing came back in time (a stalled or unreachable service); 'body': the answer started but never finished. */
  readonly phase: 'headers' | 'body';
  constructor(message: string, options: NadeoErrorOptions & { phase?: 'headers' | 'body' } = {}) {
    super(ErrorCode.TIMEOUT, message, { retryable: true, ...options });
    this.name = 'TimeoutError';
    this.phase = options.phase ?? 'headers';
  }
}

/**
 * The service asked (Retry-After on a 429 or 503) for a wait longer than the client waits: the call fails at once
 * and every later call to that host fails the same way until `retryAt`, without a request. Not retried.
 */
export class RetryLaterError extends NadeoError {
  /** The absolute time from which the host may be asked again. */
  readonly retryAt: Date;
  /** The host (scheme://host[:port]) that asked for the wait. */
  readonly origin: string;
  /** The status that carried the Retry-After (429 or 503). */
  readonly status: number;
  constructor(origin: string, status: number, retryAt: Date, options: NadeoErrorOptions = {}) {
    super(
      ErrorCode.RATE_LIMITED_LONG,
      `${origin} asked Trackwatch to wait until ${retryAt.toISOString()} (HTTP ${status}, Retry-After). ` +
        'Nothing more is sent to it before then; try again after that time.',
      { ...options, retryable: false },
    );
    this.name = 'RetryLaterError';
    this.origin = origin;
    this.status = status;
    this.retryAt = retryAt;
  }
}

/** The caller (or close()) aborted the operation. Never retried. */
export class AbortError extends NadeoError {
  constructor(message = 'The request was cancelled.', options: NadeoErrorOptions = {}) {
    super(ErrorCode.ABORTED, message, { ...options, retryable: false });
    this.name = 'AbortError';
  }
}

/**
 * True when `e` says the service could not be reached at all: no connection (refused, reset before an answer,
 * DNS, no route) or no answer to a request before its timeout. A run of these means "offline", not a bad item.
 */
export function isUnreachable(e: unknown): boolean {
  if (!(e instanceof NadeoError)) return false;
  if (e.code === ErrorCode.UNREACHABLE) return true;
  return e instanceof TimeoutError && e.phase === 'headers';
}
