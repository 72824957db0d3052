// Players by display name: the Trackmania OAuth API's name-to-account-ID route (docs/nadeo-api.md "Beyond the seed";
// openplanet-nl/nadeoapi-docs docs/oauth/reference/accounts/name-to-id.md):
// `GET /api/display-names/account-ids?displayName[]=<name>&...`, at most 50 names a call, answering
// `{"<name>": "<accountId>"}`; an empty answer may come as `[]` (a PHP backend's empty map).
// Same OAuth app and client-credentials token as the display names; its own budget (the oauth service).
import { isUuid } from '../../../shared/ids.ts';
import { parseNadeoBase, REAL_OAUTH_BASE_URL } from '../hosts.ts';
import { DEFAULT_MAX_URI_LENGTH } from '../http/batching.ts';
import { checkPositive, openConnection, type ConnectionOptions } from '../http/connection.ts';
import { ConfigError } from '../http/errors.ts';
import { parseBody } from '../http/parse.ts';
import { requestNames } from './batches.ts';
import { AccountIdsWire } from './schemas.ts';
import { OAuthClientCredentials } from './token.ts';

export { MAX_NAMES_PER_CALL } from './batches.ts';

export interface NamesClientOptions extends ConnectionOptions {
  /** REAL_OAUTH_BASE_URL (default), or the emulator's `oauthUrl`. */
  baseUrl?: string | undefined;
  /** The OAuth app registered on api.trackmania.com (the same as for display names). */
  clientId: string;
  clientSecret: string;
  maxUriLength?: number | undefined;
}

export interface AccountIdsResult {
  /** Each known name, spelled as asked, to its account ID. */
  found: Map<string, string>;
  /** Names the service does not know, spelled as asked. */
  unknown: string[];
  /** Names the service answered more than once for (differing only in letter case), with every ID it gave. */
  ambiguous: { name: string; accountIds: string[] }[];
  /** Text that cannot be a display name, with the reason; never sent. */
  invalid: { name: string; reason: string }[];
}

export interface NamesClient {
  getAccountIds(names: readonly string[], o?: { signal?: AbortSignal | undefined }): Promise<AccountIdsResult>;
  stats(): { requests: number; retries: number; uriTooLong: number; byRoute: Record<string, number> };
  close(): Promise<void>;
}

/** Why `name` cannot be a display name, or undefined. Ubisoft names are short; control characters never occur. */
export function displayNameProblem(name: string): string | undefined {
  if (name === '') return 'empty';
  if (name.length > 64) return 'longer than any display name (64 characters at most)';
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return 'holds control characters';
  return undefined;
}

export function createNamesClient(options: NamesClientOptions): NamesClient {
  const base = parseNadeoBase(options.baseUrl ?? REAL_OAUTH_BASE_URL, 'oauth baseUrl');
  if (!options.clientId || !options.clientSecret) {
    throw new ConfigError('Finding players by name needs a Trackmania OAuth app: set its client ID and secret (register one on api.trackmania.com).');
  }
  checkPositive('maxUriLength', options.maxUriLength, true);
  const maxUriLength = options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
  const conn = openConnection('oauth', options, { real: base.real, authOrigins: { oauth: base.origin } });
  const { pipeline, now } = conn;
  conn.tokens.oauth = new OAuthClientCredentials({
    origin: base.origin,
    basePath: base.basePath,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    pipeline: () => pipeline,
    now,
    lifetime: conn.lifetime,
  });

  return {
    async getAccountIds(names, o = {}) {
      conn.ensureOpen();
      const invalid: AccountIdsResult['invalid'] = [];
      // Encoded name -> the name as asked (trimmed); duplicates are asked once.
      const asked = new Map<string, string>();
      for (const raw of names) {
        const name = String(raw).trim();
        const problem = displayNameProblem(name);
        if (problem !== undefined) invalid.push({ name: String(raw), reason: problem });
        else asked.set(encodeURIComponent(name), name);
      }
      const answered = new Map<string, string>();
      await requestNames(
        { pipeline, now, base, path: '/api/display-names/account-ids', param: 'displayName', keys: [...asked.keys()], maxUriLength, signal: o.signal },
        (body, route) => {
          const answer = parseBody(AccountIdsWire, body, route, 'accountIds');
          if (Array.isArray(answer)) return;
          for (const [name, id] of Object.entries(answer)) if (isUuid(id)) answered.set(name, id.toLowerCase());
        },
      );
      const found = new Map<string, string>();
      const unknown: string[] = [];
      const ambiguous: AccountIdsResult['ambiguous'] = [];
      for (const name of new Set(asked.values())) {
        const exact = answered.get(name);
        if (exact !== undefined) {
          found.set(name, exact);
          continue;
        }
        // The service may spell a name its own way (letter case): match it without case, if only one does.
        const lower = name.toLowerCase();
        const ids = [...new Set([...answered].filter(([n]) => n.toLowerCase() === lower).map(([, id]) => id))];
        if (ids.length === 1) found.set(name, ids[0]!);
        else if (ids.length > 1) ambiguous.push({ name, accountIds: ids });
        else unknown.push(name);
      }
      return { found, unknown, ambiguous, invalid };
    },

    stats: () => conn.stats(),
    close: () => conn.close(),
  };
}
