// Display names by account ID through the Trackmania OAuth API (docs/nadeo-api.md "Player names"): at most 50 a call,
// answered `{"<accountId>": "<name>"}`, matched back to the IDs as the caller spelled them.
import { isUuid } from '../../../shared/ids.ts';
import { triageKeys } from '../core/rules.ts';
import type { BaseUrl } from '../http/base-url.ts';
import type { Connection } from '../http/connection.ts';
import { ConfigError } from '../http/errors.ts';
import { parseBody } from '../http/parse.ts';
import { requestNames } from './batches.ts';
import { DisplayNamesWire } from './schemas.ts';

export interface DisplayNamesContext {
  conn: Connection;
  /** The OAuth API's base URL; undefined when no OAuth app is configured. */
  base: BaseUrl | undefined;
  maxUriLength: number;
}

export async function getDisplayNames(
  ctx: DisplayNamesContext,
  accountIds: readonly string[],
  o: { signal?: AbortSignal | undefined } = {},
): Promise<Map<string, string>> {
  ctx.conn.ensureOpen();
  if (!ctx.base || !ctx.conn.tokens.oauth) {
    throw new ConfigError('Display names need a Trackmania OAuth app: set oauth.clientId and oauth.clientSecret (register one on api.trackmania.com).');
  }
  const t = triageKeys(accountIds, isUuid, (s) => s.toLowerCase());
  const names = new Map<string, string>();
  await requestNames(
    { pipeline: ctx.conn.pipeline, now: ctx.conn.now, base: ctx.base, path: '/api/display-names', param: 'accountId', keys: t.keys, maxUriLength: ctx.maxUriLength, signal: o.signal },
    (body, route) => {
      for (const [id, name] of Object.entries(parseBody(DisplayNamesWire, body, route, 'names'))) {
        const original = t.original.get(id.toLowerCase());
        if (original !== undefined) names.set(original, name);
      }
    },
  );
  return names;
}
