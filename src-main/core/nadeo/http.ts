// The request pipeline: transport (one undici dispatcher) wrapped by auth (token only to its own origin),
// the per-host limiter and the retry policy. Endpoint code describes a request and how to read its answer;
// everything about being a careful, polite client happens here, once.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import {
  AbortError,
  AuthError,
  ErrorCode,
  HttpError,
  NadeoError,
  NetworkError,
  RetryLaterError,
  SchemaError,
  TimeoutError,
  UnreachableError,
  type ApiErrorBody,
} from './errors.ts';
import { MAX_TIMER_MS, type LimiterPool } from './limiter.ts';
import { decideRetry, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry.ts';
import { isApiErrorCode, readApiError } from './schemas.ts';
import { linkSignals, throwIfAborted } from './signals.ts';

export type BodyReadable = Dispatcher.ResponseData['body'];

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: BodyReadable;
}

/** Where a token may go and how to get or renew it. */
export interface TokenSource {
  /** Only requests to this origin carry the token. */
  readonly origin: string;
  authorization(signal: AbortSignal): Promise<{ header: string; token: string }>;
  /** The service answered 401 to `token`: get a fresh one (shared with concurrent callers). */
  renewAfterRejection(token: string, signal: AbortSignal): Promise<void>;
}

export type AuthKind = 'nadeo' | 'oauth';

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** scheme://host[:port] */
  origin: string;
  /** Path and query exactly as sent (the request-target the URI limit applies to). */
  target: string;
  /** Label for stats and errors: method and path template, never a query string. */
  route: string;
  auth?: AuthKind;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** This request's deadline for its whole answer, when not the pipeline's (downloads are bigger). */
  deadlineMs?: number | undefined;
  /**
   * A 404/410 means the route was removed (API routes only), unless its body carries one of `ownNotFoundCodes`:
   * only the endpoint's own documented answer proves the route alive, not any API-looking error body.
   */
  detectGoneRoute?: boolean;
  /** API error codes the endpoint itself documents for a 404/410 (the records lookup's not-found `C-AL-02-03`). */
  ownNotFoundCodes?: readonly string[];
  /** Reads the answer; throw a NadeoError to fail the attempt (retryable ones are retried). */
  handle: (res: RawResponse, signal: AbortSignal) => Promise<T>;
}

export interface RequestEvent {
  method: string;
  route: string;
  status: number | 'error';
  attempt: number;
  ms: number;
}

export interface PipelineStats {
  requests: number;
  retries: number;
  uriTooLong: number;
  byRoute: Record<string, number>;
}

/** Arms a deadline of `ms`: `expire` runs then, unless the returned function disarms it first. */
export type ArmDeadline = (ms: number, expire: () => void) => () => void;

/** Deadlines on the system's timers. */
export const armDeadline: ArmDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

export interface PipelineOptions {
  dispatcher: Dispatcher;
  limiters: LimiterPool;
  retry: RetryPolicy;
  userAgent: string;
  /** Per attempt: the wait for the answer's headers, and the longest silence inside its body. */
  timeoutMs: number;
  /** Per attempt: the whole answer, headers and body, within this time; a trickling body ends with a TimeoutError. */
  deadlineMs: number;
  /** Wall clock, ms (Retry-After dates). */
  now: () => number;
  /** Arms an answer's deadline: `expire` runs after `ms` unless the returned disarm runs first. */
  armDeadline: ArmDeadline;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  /** Aborts when the client closes. */
  lifetime: AbortSignal;
  onRequest?: ((e: RequestEvent) => void) | undefined;
  tokens: Partial<Record<AuthKind, TokenSource>>;
  /** The origin each kind of token belongs to, known even without credentials (to word a 401 well). */
  authOrigins: Partial<Record<AuthKind, string>>;
}

/** Largest JSON body an API call reads; far above any real answer (300 maps are ~300 KB). */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_CLOSED',
]);

/**
 * Turns what undici and sockets throw into the taxonomy; anything unknown (a bug) is rethrown as is. `answered`:
 * whether the service had sent the answer's headers (a failure before them means it could not be reached).
 */
export function toNadeoError(e: unknown, signal: AbortSignal | undefined, route: string, answered = false): unknown {
  if (e instanceof NadeoError) return e;
  if (signal?.aborted) return new AbortError(undefined, { cause: e });
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UnreachableError(`${route}: no connection could be made in time (${code}). Check your internet connection.`, { cause: e });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`${route} timed out (${code}); the service or the network is slow. Trackwatch retries a few times.`, {
      cause: e,
      phase: code === 'UND_ERR_BODY_TIMEOUT' || answered ? 'body' : 'headers',
    });
  }
  if (code === 'UND_ERR_ABORTED' || code === 'UND_ERR_ABORT' || code === 'ABORT_ERR') return new AbortError(undefined, { cause: e });
  if (code === 'UND_ERR_DESTROYED') return new AbortError('The client was closed.', { cause: e });
  if (code === 'ENOTFOUND') {
    return new UnreachableError(`${route}: the host name could not be resolved. Check the address and your internet connection.`, {
      cause: e,
      retryable: false,
    });
  }
  if (!answered && NETWORK_CODES.has(code) && code !== 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new UnreachableError(`${route}: the service could not be reached (${code}). Trackwatch retries a few times; check your connection if it persists.`, {
      cause: e,
    });
  }
  if (NETWORK_CODES.has(code) || code.startsWith('HPE_')) {
    return new NetworkError(`${route}: the connection failed or dropped (${code}). Trackwatch retries a few times; check your connection if it persists.`, {
      cause: e,
    });
  }
  return e;
}

/** Drops an unread body. undici emits 'error' on a destroyed unfinished body, so a listener must be there first. */
export function discardBody(body: BodyReadable): void {
  body.on('error', () => {});
  if (!body.destroyed) body.destroy();
}

/** Reads and drops a small unwanted body so the connection can be reused; bigger ones are cut off. */
export async function drainBody(body: BodyReadable): Promise<void> {
  try {
    await body.dump({ limit: 64 * 1024 });
  } catch {
    discardBody(body);
  }
}

function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const raw = headers['content-length'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Reads a whole body, refusing more than `maxBytes`; a body shorter than its Content-Length is a retryable NetworkError. */
export async function readBody(res: RawResponse, route: string, maxBytes = MAX_JSON_BYTES): Promise<Buffer> {
  const expected = contentLength(res.headers);
  if (expected !== undefined && expected > maxBytes) {
    discardBody(res.body);
    throw new NadeoError(ErrorCode.TOO_LARGE, `${route} answered ${expected} bytes, more than the ${maxBytes} allowed.`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      discardBody(res.body);
      throw new NadeoError(ErrorCode.TOO_LARGE, `${route} answered more than the ${maxBytes} bytes allowed.`);
    }
    chunks.push(chunk);
  }
  if (expected !== undefined && total !== expected) {
    throw new NetworkError(`${route}: the answer was cut short (${total} of ${expected} bytes). Trackwatch retries.`);
  }
  return Buffer.concat(chunks, total);
}

/** A Content-Type that says JSON (`application/json`, `…+json`), or none at all (then the body decides). */
function saysJson(headers: IncomingHttpHeaders): boolean {
  const raw = headers['content-type'];
  if (raw === undefined || raw.trim() === '') return true;
  const type = raw.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads a JSON body. An answer of another content type (a proxy's or a captive portal's page) is a SchemaError;
 * a parse failure with no Content-Length to check against counts as a truncated body.
 */
export async function readJson(res: RawResponse, route: string): Promise<unknown> {
  if (!saysJson(res.headers)) {
    discardBody(res.body);
    const type = String(res.headers['content-type']).slice(0, 80);
    throw new SchemaError(route, '(body)', `expected JSON, got content type "${type}" (a proxy or login page in the way?)`);
  }
  const buf = await readBody(res, route);
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch (e) {
    if (contentLength(res.headers) === undefined) {
      throw new NetworkError(`${route}: the answer ended before its JSON did (cut short?). Trackwatch retries.`, { cause: e });
    }
    throw new SchemaError(route, '(body)', 'not valid JSON', { cause: e });
  }
}

function describeApiError(api: ApiErrorBody | undefined): string {
  if (!api) return '';
  const parts = [api.code];
  if (api.message) parts.push(api.message);
  if (api.info !== undefined) {
    const info = Array.isArray(api.info) ? api.info.join('; ') : Object.entries(api.info).map(([k, v]) => `${k}: ${String(v)}`).join('; ');
    if (info) parts.push(info);
  }
  if (api.correlation_id) parts.push(`correlation id ${api.correlation_id}`);
  return ` (${parts.join(' - ')})`;
}

/** Builds the HttpError for a non-success answer whose body has been read (possibly empty or not JSON). */
/** What an error needs to know about its request. */
export type ErrorSpec = Pick<RequestSpec<unknown>, 'method' | 'route' | 'detectGoneRoute' | 'ownNotFoundCodes' | 'target'>;

export function httpErrorFor(
  spec: ErrorSpec,
  status: number,
  bodyText: string,
  retryAfterMs: number | undefined,
): HttpError {
  let parsed: unknown;
  try {
    parsed = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    parsed = undefined;
  }
  const apiError = readApiError(parsed);
  const ownCode = isApiErrorCode(apiError?.code);
  // A removed route may answer with an ordinary-looking API error body ("Route not found", a code, a correlation id):
  // only the endpoint's own documented not-found proves the route is still there (docs: docs/nadeo-api.md).
  const routeGone =
    (status === 404 || status === 410) && spec.detectGoneRoute === true && !(ownCode && spec.ownNotFoundCodes?.includes(apiError!.code));
  const details = { status, method: spec.method, route: spec.route, retryAfterMs, targetLength: spec.target.length, ...(ownCode ? { apiError } : {}) };
  const what = `${spec.route} answered HTTP ${status}${describeApiError(ownCode ? apiError : undefined)}`;
  const retryable = isRetryableStatus(status);
  switch (status) {
    case 400:
    case 422:
      return new HttpError(ErrorCode.VALIDATION, `${what}: the service rejected the request as invalid. Check the IDs sent.`, details);
    case 401:
      return new HttpError(ErrorCode.UNAUTHORIZED, `${what}: not logged in or the token was refused. Check the account settings.`, details);
    case 403:
      return new HttpError(ErrorCode.FORBIDDEN, `${what}: access is forbidden for this account or this item.`, details);
    case 404:
    case 410:
      if (routeGone) {
        return new HttpError(ErrorCode.ROUTE_GONE, `${what}, not this endpoint's own answer: the service no longer has this route. Update Trackwatch.`, details);
      }
      return new HttpError(ErrorCode.NOT_FOUND, `${what}: not found.`, details);
    case 414:
      return new HttpError(
        ErrorCode.URI_TOO_LONG,
        `${what}: the request address (${spec.target.length} characters) is too long for the server or a proxy on the way.`,
        details,
      );
    case 429:
      return new HttpError(
        ErrorCode.RATE_LIMITED,
        `${what}: the service asks Trackwatch to slow down${retryAfterMs !== undefined ? ` for ${Math.ceil(retryAfterMs / 1000)} s` : ''}. Lower the request rate or try again later.`,
        details,
        { retryable: true },
      );
    default:
      return new HttpError(
        ErrorCode.HTTP,
        status >= 500 ? `${what}: the service had a problem. Try again later.` : `${what}: unexpected answer.`,
        details,
        { retryable },
      );
  }
}

/** Reads an error answer's body (small, best effort) and builds its HttpError. */
export async function errorFromResponse(spec: ErrorSpec, res: RawResponse, now: number): Promise<HttpError> {
  let text = '';
  try {
    text = (await readBody(res, spec.route, 64 * 1024)).toString('utf8');
  } catch (e) {
    // A 5xx whose body also broke is still a 5xx; a body cut short on a 4xx still tells us the status.
    if (!(e instanceof NadeoError)) throw e;
  }
  return httpErrorFor(spec, res.status, text, parseRetryAfter(res.headers['retry-after'], now));
}

/** Handler for JSON API calls: the parsed body on 2xx, an HttpError otherwise. */
export function jsonHandler(spec: ErrorSpec, now: () => number): (res: RawResponse) => Promise<unknown> {
  return async (res) => {
    if (res.status >= 200 && res.status < 300) return readJson(res, spec.route);
    throw await errorFromResponse(spec, res, now());
  };
}

export class Pipeline {
  readonly #o: PipelineOptions;
  readonly #stats: PipelineStats = { requests: 0, retries: 0, uriTooLong: 0, byRoute: {} };

  constructor(options: PipelineOptions) {
    this.#o = options;
  }

  get userAgent(): string {
    return this.#o.userAgent;
  }

  stats(): PipelineStats {
    return { ...this.#stats, byRoute: { ...this.#stats.byRoute } };
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const linked = linkSignals(spec.signal, this.#o.lifetime);
    const signal = linked.signal;
    try {
      return await this.#run(spec, signal);
    } catch (e) {
      if (signal.aborted && !(e instanceof AbortError)) {
        throw this.#o.lifetime.aborted ? new AbortError('The client was closed.', { cause: e }) : new AbortError(undefined, { cause: e });
      }
      throw e;
    } finally {
      linked.dispose();
    }
  }

  async #run<T>(spec: RequestSpec<T>, signal: AbortSignal): Promise<T> {
    const source = spec.auth ? this.#o.tokens[spec.auth] : undefined;
    // The token goes to its own origin only: a storage URL on another host gets no Authorization header.
    const tokenSource = source && source.origin === spec.origin ? source : undefined;
    const limiter = this.#o.limiters.for(spec.origin);
    let attempt = 1;
    let renewedAfter401 = false;
    for (;;) {
      throwIfAborted(signal);
      const headers: Record<string, string> = { ...spec.headers, 'user-agent': this.#o.userAgent };
      let usedToken: string | undefined;
      if (tokenSource) {
        // Before the limiter: a login goes through the same limiter and must not wait behind our own slot.
        const auth = await tokenSource.authorization(signal);
        headers['authorization'] = auth.header;
        usedToken = auth.token;
      }
      const release = await limiter.acquire(signal);
      const started = performance.now();
      let status: number | 'error' = 'error';
      let failure: unknown;
      let value: T | undefined;
      let ok = false;
      // The whole answer, headers and body, has a deadline: undici's timeouts only bound each silence.
      const deadline = new AbortController();
      let deadlineHit = false;
      const deadlineMs = spec.deadlineMs ?? this.#o.deadlineMs;
      const disarm = this.#o.armDeadline(Math.min(deadlineMs, MAX_TIMER_MS), () => {
        deadlineHit = true;
        deadline.abort(new TimeoutError(`${spec.route}: the answer took longer than ${deadlineMs} ms.`));
      });
      const attemptSignal = linkSignals(signal, deadline.signal);
      try {
        this.#stats.requests++;
        this.#stats.byRoute[spec.route] = (this.#stats.byRoute[spec.route] ?? 0) + 1;
        const res = await this.#o.dispatcher.request({
          origin: spec.origin,
          path: spec.target,
          method: spec.method,
          headers,
          body: spec.body ?? null,
          signal: attemptSignal.signal,
          headersTimeout: this.#o.timeoutMs,
          bodyTimeout: this.#o.timeoutMs,
        });
        status = res.statusCode;
        if (status === 414) this.#stats.uriTooLong++;
        const raw: RawResponse = { status: res.statusCode, headers: res.headers, body: res.body };
        try {
          value = await spec.handle(raw, attemptSignal.signal);
          ok = true;
        } finally {
          if (!res.body.readableEnded) discardBody(res.body);
        }
      } catch (e) {
        if (deadlineHit && !signal.aborted) {
          failure = new TimeoutError(
            `${spec.route}: ${status === 'error' ? 'no answer' : 'the answer did not arrive in full'} within ${formatMs(deadlineMs)} ` +
              '(a slow or stalled service). Trackwatch retries a few times.',
            { cause: e, phase: status === 'error' ? 'headers' : 'body' },
          );
        } else failure = toNadeoError(e, signal, spec.route, status !== 'error');
      } finally {
        disarm();
        attemptSignal.dispose();
        release();
        try {
          this.#o.onRequest?.({ method: spec.method, route: spec.route, status, attempt, ms: performance.now() - started });
        } catch {
          // An observer's bug must not fail or repeat a request.
        }
      }
      if (ok) return value as T;

      if (failure instanceof HttpError && failure.status === 401 && spec.auth && this.#o.authOrigins[spec.auth] === spec.origin) {
        if (!tokenSource) {
          throw new AuthError(
            spec.auth === 'nadeo'
              ? `${spec.route} needs a login: set a Nadeo service account (login and password) in the settings.`
              : `${spec.route} needs a Trackmania OAuth app: set its client ID and secret in the settings.`,
            401,
            { cause: failure },
          );
        }
        if (!renewedAfter401 && usedToken !== undefined) {
          renewedAfter401 = true;
          this.#stats.retries++;
          await tokenSource.renewAfterRejection(usedToken, signal);
          continue;
        }
        throw new AuthError(
          `${spec.route} refused a freshly renewed token (401). The account may lack access; check the login in the settings.`,
          401,
          { cause: failure },
        );
      }
      const tooLong = this.#longWait(failure, spec.origin);
      if (tooLong) {
        limiter.block(tooLong.ms, () => tooLong.error());
        throw tooLong.error();
      }
      const decision = decideRetry(failure, attempt, this.#o.retry, this.#o.random);
      // The service asked everyone to wait, so nobody talks to this host meanwhile: also when this call gives up
      // on its last try, or the next call would go out at once. (A wait longer than we wait is #longWait's.)
      if (decision.retry && decision.fromRetryAfter) limiter.pauseFor(decision.delayMs);
      else if (failure instanceof HttpError && failure.retryAfterMs !== undefined && failure.retryAfterMs <= this.#o.retry.maxRetryAfterMs) {
        limiter.pauseFor(failure.retryAfterMs);
      }
      if (!decision.retry) throw failure;
      this.#stats.retries++;
      await this.#o.sleep(decision.delayMs, signal);
      attempt++;
    }
  }

  /** A Retry-After longer than the client waits: how long the host stays paused, and the error every call gets meanwhile. */
  #longWait(failure: unknown, origin: string): { ms: number; error: () => RetryLaterError } | undefined {
    if (!(failure instanceof HttpError) || !failure.retryable || failure.retryAfterMs === undefined) return undefined;
    if (failure.retryAfterMs <= this.#o.retry.maxRetryAfterMs) return undefined;
    // An absurd Retry-After still gives a real date: nobody keeps a client open for a year.
    const ms = Math.min(failure.retryAfterMs, MAX_PAUSE_MS);
    const retryAt = new Date(this.#o.now() + ms);
    const status = failure.status;
    return { ms, error: () => new RetryLaterError(origin, status, retryAt, { cause: failure }) };
  }
}

/** The longest pause a Retry-After can impose on a host. */
const MAX_PAUSE_MS = 366 * 24 * 3600_000;

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
