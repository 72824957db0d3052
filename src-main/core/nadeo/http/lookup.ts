// One batched lookup (DataLoader's batch function, sized by URI length): pack keys into the fewest requests,
// run them concurrently (the limiter paces them), and recover per batch: a 414 halves the batch and lowers the
// remembered limit; a validation error about the list bisects it to isolate the bad keys; a gone route moves
// to the successor. Results are merged; the caller matches them by key.
import { ErrorCode, HttpError } from './errors.ts';
import { halve, packByLength, targetLength } from './batching.ts';
import type { RouteChoice, RouteDef } from './route-choice.ts';
import { linkSignals, throwIfAborted } from './signals.ts';

/** The longest request-target known to work, per route; starts at the configured limit, lowered by 414s. */
export class UriLimits {
  readonly #initial: number;
  readonly #byRoute = new Map<string, number>();
  constructor(initial: number) {
    this.#initial = initial;
  }
  get(route: string): number {
    return this.#byRoute.get(route) ?? this.#initial;
  }
  lower(route: string, limit: number): void {
    this.#byRoute.set(route, Math.min(this.get(route), limit));
  }
}

export interface LookupSpec<R> {
  keys: readonly string[];
  routes: RouteChoice;
  limits: UriLimits;
  /** The exact request-target for `keys` on `route`; with no keys its length is the fixed part. */
  build: (route: RouteDef, keys: readonly string[]) => string;
  fetch: (route: RouteDef, target: string, keys: readonly string[], signal: AbortSignal) => Promise<R[]>;
  /** Keys the service rejected one by one (found by bisecting). */
  onInvalid: (key: string) => void;
  signal?: AbortSignal | undefined;
}

/** Parameter names a validation error's info talks about: object keys, or the text before ':' of each line. */
export function validationParams(error: HttpError): string[] {
  const info = error.info;
  if (info === undefined) return [];
  if (Array.isArray(info)) return info.map((line) => line.split(':')[0]!.trim());
  return Object.keys(info);
}

/**
 * Bisecting can isolate a bad key only when the error is about the list alone: its info names the list
 * parameter and nothing else (a bad mapId or seasonId would fail every half, costing a request per key).
 */
export function validationNamesParam(error: HttpError, param: string): boolean {
  const params = validationParams(error);
  return params.length > 0 && params.every((p) => p === param);
}

export async function runLookup<R>(spec: LookupSpec<R>): Promise<R[]> {
  if (spec.keys.length === 0) return [];
  // One failed batch cancels its siblings: the lookup fails as a whole.
  const linked = linkSignals(spec.signal);
  const signal = linked.signal;

  const runAll = async (parts: readonly (readonly string[])[]): Promise<R[]> => (await Promise.all(parts.map(run))).flat();

  const run = async (keys: readonly string[]): Promise<R[]> => {
    throwIfAborted(signal);
    const route = spec.routes.current();
    const fixedLength = spec.build(route, []).length;
    const limit = spec.limits.get(route.label);
    if (keys.length > 1 && targetLength(keys, { fixedLength }) > limit) {
      // Packed for another route or a higher limit: repack for this one.
      const parts = packByLength(keys, { limit, fixedLength });
      return runAll(parts.length > 1 ? parts : halve(keys));
    }
    const target = spec.build(route, keys);
    try {
      return await spec.fetch(route, target, keys, signal);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (e.code === ErrorCode.ROUTE_GONE) {
        spec.routes.markGone(route, e);
        return run(keys);
      }
      if (e.code === ErrorCode.URI_TOO_LONG && keys.length > 1) {
        const halves = halve(keys);
        // Remember what a stricter proxy accepts, so later lookups pack for it at once.
        spec.limits.lower(route.label, Math.max(...halves.map((h) => targetLength(h, { fixedLength }))));
        return runAll(halves);
      }
      if (e.code === ErrorCode.VALIDATION && validationNamesParam(e, route.listParam)) {
        if (keys.length === 1) {
          spec.onInvalid(keys[0]!);
          return [];
        }
        return runAll(halve(keys));
      }
      throw e;
    }
  };

  try {
    const limit = spec.limits.get(spec.routes.current().label);
    const fixedLength = spec.build(spec.routes.current(), []).length;
    return await runAll(packByLength(spec.keys, { limit, fixedLength }));
  } catch (e) {
    linked.abort();
    throw e;
  } finally {
    linked.dispose();
  }
}
