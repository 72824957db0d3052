// The request loop of the Trackmania OAuth API's display-name routes (docs/nadeo-api.md "Player names"): names by
// account ID (display-names.ts) and account IDs by name (client.ts) both take a repeated `param[]=` of at most 50 keys, so
// keys are packed by the length of the exact URI sent and the packs asked at once; one failed pack fails them all.
import { jsonHandler } from '../http/answers.ts';
import { packByLength } from '../http/batching.ts';
import type { Pipeline } from '../http/pipeline.ts';
import { linkSignals } from '../http/signals.ts';

/** Keys per call at most, on both display-name routes (docs/nadeo-api.md "Player names"). */
export const MAX_NAMES_PER_CALL = 50;

export interface NamesRequest {
  pipeline: Pipeline;
  now: () => number;
  /** The OAuth API's origin and base path (parseBase). */
  base: { origin: string; basePath: string };
  /** The route's path, e.g. `/api/display-names`; its label in stats is `GET <path>`. */
  path: string;
  /** The repeated query parameter, without `[]` (`accountId`, `displayName`). */
  param: string;
  /** Already URI-encoded and unique. */
  keys: readonly string[];
  maxUriLength: number;
  signal?: AbortSignal | undefined;
}

/** Asks for every key, in as few calls as fit; `onAnswer` gets each call's parsed JSON body. */
export async function requestNames(o: NamesRequest, onAnswer: (body: unknown, route: string) => void): Promise<void> {
  const route = `GET ${o.path}`;
  const fixed = `${o.base.basePath}${o.path}?${o.param}[]=`;
  const sep = `&${o.param}[]=`;
  const batches = packByLength(o.keys, { limit: o.maxUriLength, fixedLength: fixed.length, separatorLength: sep.length, maxKeys: MAX_NAMES_PER_CALL });
  // One failed batch cancels its siblings: the lookup fails as a whole.
  const linked = linkSignals(o.signal);
  try {
    await Promise.all(
      batches.map(async (keys) => {
        const target = fixed + keys.join(sep);
        const body = await o.pipeline.request({
          method: 'GET',
          origin: o.base.origin,
          target,
          route,
          auth: 'oauth',
          headers: { accept: 'application/json' },
          signal: linked.signal,
          handle: jsonHandler({ method: 'GET', route, target }, o.now),
        });
        onAnswer(body, route);
      }),
    );
  } catch (e) {
    linked.abort();
    throw e;
  } finally {
    linked.dispose();
  }
}
