// What the Live service's endpoint functions work over (one per client, made by createLiveClient), and how a Live
// answer is read: Live has error bodies of its own (`["activity:error-notFound"]`), unlike Core's.
import { httpErrorFor, readBody, readJson, type ErrorSpec } from '../http/answers.ts';
import type { BaseUrl } from '../http/base-url.ts';
import type { Connection } from '../http/connection.ts';
import { ErrorCode, HttpError, NadeoError } from '../http/errors.ts';
import type { UriLimits } from '../http/lookup.ts';
import type { RawResponse } from '../http/pipeline.ts';
import { parseRetryAfter } from '../http/retry.ts';
import type { RouteChoice } from '../http/route-choice.ts';
import { LiveErrorWire } from './schemas.ts';

export interface LiveContext {
  conn: Connection;
  live: BaseUrl;
  limits: UriLimits;
  campaignsRoute: RouteChoice;
  monthsRoute: RouteChoice;
}

/** The Live error code of an error body (`["activity:error-notFound"]`), if it is one. */
function liveErrorCode(bodyText: string): string | undefined {
  try {
    const parsed = LiveErrorWire.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a Live answer: the JSON body on 2xx; otherwise the error of the shared taxonomy, where Live's own error
 * arrays prove the route alive and a 404/410 with neither Live's nor Core's error body means the route is gone.
 */
function liveHandler(spec: ErrorSpec, now: () => number): (res: RawResponse) => Promise<unknown> {
  return async (res) => {
    if (res.status >= 200 && res.status < 300) return readJson(res, spec.route);
    let text = '';
    try {
      text = (await readBody(res, spec.route, 64 * 1024)).toString('utf8');
    } catch (e) {
      if (!(e instanceof NadeoError)) throw e;
    }
    const base = httpErrorFor({ ...spec, detectGoneRoute: false }, res.status, text, parseRetryAfter(res.headers['retry-after'], now()));
    const code = liveErrorCode(text);
    const details = { status: base.status, method: base.method, route: base.route, targetLength: base.targetLength, ...(base.retryAfterMs !== undefined ? { retryAfterMs: base.retryAfterMs } : {}) };
    if (code !== undefined) {
      throw new HttpError(base.code, `${spec.route} answered HTTP ${res.status} (${code}).`, { ...details, apiError: { code } }, { retryable: base.retryable });
    }
    if ((res.status === 404 || res.status === 410) && base.apiCode === undefined && spec.detectGoneRoute) {
      throw new HttpError(ErrorCode.ROUTE_GONE, `${spec.route} answered HTTP ${res.status} without a Live error: the service no longer has this route. Update Trackwatch.`, details);
    }
    throw base;
  };
}

/** One Live call with the Live token: a GET, or a POST of a JSON `body`. */
export function liveRequest(
  ctx: LiveContext,
  method: 'GET' | 'POST',
  route: string,
  target: string,
  signal: AbortSignal | undefined,
  extra: { body?: string; detectGoneRoute?: boolean } = {},
): Promise<unknown> {
  return ctx.conn.pipeline.request({
    method,
    origin: ctx.live.origin,
    target,
    route,
    auth: 'nadeo',
    headers: extra.body !== undefined ? { accept: 'application/json', 'content-type': 'application/json' } : { accept: 'application/json' },
    ...(extra.body !== undefined ? { body: extra.body } : {}),
    signal,
    handle: liveHandler({ method, route, target, detectGoneRoute: extra.detectGoneRoute ?? true }, ctx.conn.now),
  });
}

/** A GET on a route family with a successor: a gone route moves to the next for the client's lifetime. */
export async function getWithFallback(ctx: LiveContext, choice: RouteChoice, query: string, signal: AbortSignal | undefined): Promise<{ body: unknown; route: string }> {
  for (;;) {
    const route = choice.current();
    try {
      return { body: await liveRequest(ctx, 'GET', route.label, `${ctx.live.basePath}${route.path}?${query}`, signal), route: route.label };
    } catch (e) {
      if (e instanceof HttpError && e.code === ErrorCode.ROUTE_GONE) {
        choice.markGone(route, e);
        continue;
      }
      throw e;
    }
  }
}

export function isoFromSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
