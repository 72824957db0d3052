// Reading answers: undici's and the sockets' failures turned into the error taxonomy, bodies read with a size cap,
// JSON checked to be JSON, and a non-success answer turned into its HttpError (with the API's own error body).
import type { IncomingHttpHeaders } from 'node:http';
import {
  AbortError,
  ErrorCode,
  HttpError,
  NadeoError,
  NetworkError,
  SchemaError,
  TimeoutError,
  UnreachableError,
  type ApiErrorBody,
} from './errors.ts';
import { isApiErrorCode, readApiError } from './parse.ts';
import type { BodyReadable, RawResponse, RequestSpec } from './request.ts';
import { isRetryableStatus, parseRetryAfter } from './retry.ts';

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
 * whether the service had sent the answer's headers (a failure before them means it could not be reached). The
 * message names the service by its host (`origin`), as a player knows it, never by a route template.
 */
export function toNadeoError(e: unknown, signal: AbortSignal | undefined, origin: string, answered = false): unknown {
  if (e instanceof NadeoError) return e;
  if (signal?.aborted) return new AbortError(undefined, { cause: e });
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  const host = hostOf(origin);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UnreachableError(`No connection to ${host} could be made in time (${code}). Check your internet connection.`, { cause: e });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`The service at ${host} timed out (${code}); it or the network is slow. Trackwatch retries a few times.`, {
      cause: e,
      phase: code === 'UND_ERR_BODY_TIMEOUT' || answered ? 'body' : 'headers',
    });
  }
  if (code === 'UND_ERR_ABORTED' || code === 'UND_ERR_ABORT' || code === 'ABORT_ERR') return new AbortError(undefined, { cause: e });
  if (code === 'UND_ERR_DESTROYED') return new AbortError('The client was closed.', { cause: e });
  if (code === 'ENOTFOUND') {
    return new UnreachableError(`The host name ${host} could not be resolved. Check the address and your internet connection.`, {
      cause: e,
      retryable: false,
    });
  }
  if (!answered && NETWORK_CODES.has(code) && code !== 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new UnreachableError(`The service at ${host} could not be reached (${code}). Trackwatch retries a few times; check your connection if it persists.`, {
      cause: e,
    });
  }
  if (NETWORK_CODES.has(code) || code.startsWith('HPE_')) {
    return new NetworkError(`The connection to the service at ${host} failed or dropped (${code}). Trackwatch retries a few times; check your connection if it persists.`, {
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

/** What an error needs to know about its request. */
export type ErrorSpec = Pick<RequestSpec<unknown>, 'method' | 'route' | 'detectGoneRoute' | 'ownNotFoundCodes' | 'target'>;

/** Builds the HttpError for a non-success answer whose body has been read (possibly empty or not JSON). */
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

/** An origin's host (and port), as a message names the service; the origin itself when it does not parse. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}
